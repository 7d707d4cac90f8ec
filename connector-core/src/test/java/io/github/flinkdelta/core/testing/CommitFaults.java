/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.testing;

import io.delta.kernel.commit.CommitFailedException;
import io.delta.kernel.commit.CommitMetadata;
import io.delta.kernel.commit.CommitResponse;
import io.delta.kernel.commit.Committer;
import io.delta.kernel.data.Row;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.internal.commit.DefaultFileSystemManagedTableOnlyCommitter;
import io.delta.kernel.utils.CloseableIterator;
import java.io.Serializable;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Faults for the commits of a path table, armed by a test and fired by Kernel's commit of the next
 * versions: each commit takes the next armed fault, or none. A fault counts when it fires.
 *
 * <p>Commits go through Kernel's own file-system committer (an internal class: a test of how Kernel
 * commits, which fails when Kernel changes it).
 */
public final class CommitFaults implements Serializable {

  private static final long serialVersionUID = 1L;

  /** What the next commit meets. */
  public enum Fault {
    /** The commit goes through: a place in the queue for a commit that is to meet no fault. */
    NONE,
    /** The commit lands, then its answer is lost: Kernel sees a retryable failure. */
    LAND_THEN_LOSE_THE_RESPONSE,
    /** The commit fails before anything is written, retryably. */
    FAIL_BEFORE_LANDING,
    /** The commit fails before anything is written, for good. */
    FAIL_FOR_GOOD
  }

  private final Queue<Fault> armed = new ConcurrentLinkedQueue<>();
  private final AtomicInteger fired = new AtomicInteger();

  /** Arms {@code faults} for the next commits, in order. */
  public CommitFaults arm(Fault... faults) {
    armed.addAll(List.of(faults));
    return this;
  }

  /** The faults fired so far. */
  public int fired() {
    return fired.get();
  }

  /** The faults armed and not fired yet. */
  public int armed() {
    return armed.size();
  }

  /** A committer of path tables that fires the armed faults. */
  public Committer committer() {
    return new FaultyCommitter(this);
  }

  private record FaultyCommitter(CommitFaults faults) implements Committer {

    @Override
    public CommitResponse commit(
        Engine engine, CloseableIterator<Row> actions, CommitMetadata metadata)
        throws CommitFailedException {
      Fault fault = faults.armed.poll();
      if (fault == Fault.NONE) {
        return DefaultFileSystemManagedTableOnlyCommitter.INSTANCE.commit(
            engine, actions, metadata);
      }
      if (fault == null) {
        return DefaultFileSystemManagedTableOnlyCommitter.INSTANCE.commit(
            engine, actions, metadata);
      }
      faults.fired.incrementAndGet();
      switch (fault) {
        case LAND_THEN_LOSE_THE_RESPONSE -> {
          DefaultFileSystemManagedTableOnlyCommitter.INSTANCE.commit(engine, actions, metadata);
          throw new CommitFailedException(
              true, false, "injected: version " + metadata.getVersion() + " landed, answer lost");
        }
        case FAIL_BEFORE_LANDING ->
            throw new CommitFailedException(
                true, false, "injected: version " + metadata.getVersion() + " failed to land");
        default ->
            throw new CommitFailedException(
                false, false, "injected: version " + metadata.getVersion() + " refused for good");
      }
    }
  }
}
