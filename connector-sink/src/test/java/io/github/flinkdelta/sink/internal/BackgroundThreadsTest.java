/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * How an owner's background work ends: on a thread of its own, its release runs after the thread
 * stopped; on a shared thread, behind the owner's task in flight, and never lost when the shared
 * thread has to be interrupted to stop.
 */
class BackgroundThreadsTest {

  @Test
  void anOwnThreadStopsBeforeTheReleaseRuns() {
    ExecutorService own = Executors.newSingleThreadExecutor();
    List<String> order = Collections.synchronizedList(new ArrayList<>());
    own.execute(() -> order.add("task"));

    BackgroundThreads.release(own, true, () -> order.add("release"));

    assertThat(own.isTerminated()).isTrue();
    assertThat(order).containsExactly("task", "release");
  }

  @Test
  void onASharedThreadTheReleaseWaitsForTheTaskInFlight() throws Exception {
    ExecutorService shared = Executors.newSingleThreadExecutor();
    CountDownLatch running = new CountDownLatch(1);
    CountDownLatch finish = new CountDownLatch(1);
    List<String> order = Collections.synchronizedList(new ArrayList<>());
    shared.execute(
        () -> {
          running.countDown();
          awaitQuietly(finish);
          order.add("task");
        });
    running.await();

    BackgroundThreads.release(shared, false, () -> order.add("release"));
    assertThat(order).as("nothing released while the task runs").isEmpty();
    finish.countDown();
    shared.shutdown();
    assertThat(shared.awaitTermination(1, TimeUnit.MINUTES)).isTrue();

    assertThat(order).containsExactly("task", "release");
  }

  @Test
  void releasesQueuedOnASharedThreadThatMustBeInterruptedStillRun() throws Exception {
    ExecutorService shared = Executors.newSingleThreadExecutor();
    CountDownLatch running = new CountDownLatch(1);
    shared.execute(
        () -> {
          running.countDown();
          // Ends only when interrupted.
          awaitQuietly(new CountDownLatch(1));
        });
    running.await();
    List<String> released = Collections.synchronizedList(new ArrayList<>());
    BackgroundThreads.release(shared, false, () -> released.add("first"));
    BackgroundThreads.release(shared, false, () -> released.add("second"));

    BackgroundThreads.stopShared(shared);

    assertThat(shared.isTerminated()).isTrue();
    assertThat(released).containsExactly("first", "second");
  }

  @Test
  void aReleaseAfterTheSharedThreadStoppedRunsAtOnce() {
    ExecutorService shared = Executors.newSingleThreadExecutor();
    shared.shutdown();
    List<String> released = new ArrayList<>();

    BackgroundThreads.release(shared, false, () -> released.add("release"));

    assertThat(released).containsExactly("release");
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
