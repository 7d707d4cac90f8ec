/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.chaos;

import io.github.flinkdelta.it.chaos.ChaosSchedule.Fault;
import io.github.flinkdelta.it.chaos.ChaosSchedule.Planned;
import io.github.flinkdelta.it.support.FaultCounter;
import io.github.flinkdelta.it.support.S3FaultInterceptor;
import io.github.flinkdelta.testkit.UnityCatalogServer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.minicluster.MiniCluster;

/**
 * Arms a chaos plan's faults against the jobs of one run, in order, each after its pause, and
 * counts them: armed here, fired where they hit (the writer failures thrown, the S3 bursts that
 * faulted a request, the catalog faults that answered a call, the TaskManagers terminated). A run
 * may drive several jobs, one after the other, with parts of one plan; the counts add up.
 */
final class ChaosInjector {

  static final String UPDATE_TABLE =
      "POST /delta/v1/catalogs/{catalog}/schemas/{schema}/tables/{table}";
  static final String TABLE_CREDENTIALS = "POST /temporary-table-credentials";

  private static final long TICK_MILLIS = 100;

  private final UnityCatalogServer server;
  private final MiniCluster cluster;
  private final TaskManagers taskManagers;
  private final FaultCounter writerFailures;
  private final ChaosTally armed = new ChaosTally();
  private int taskManagersLost;

  /** Clears every fault left from an earlier run and counts from zero. */
  ChaosInjector(
      UnityCatalogServer server,
      MiniCluster cluster,
      TaskManagers taskManagers,
      FaultCounter writerFailures) {
    this.server = server;
    this.cluster = cluster;
    this.taskManagers = taskManagers;
    this.writerFailures = writerFailures;
    clear();
    S3FaultInterceptor.resetCounts();
  }

  /** What the test does between faults while a job runs. */
  interface Tick {
    void run() throws Exception;
  }

  /**
   * Arms {@code faults} against {@code job} until the job ends, or, when every fault is armed,
   * until {@code done} holds; runs {@code tick} between faults, about every 100 ms.
   *
   * @param what the job, as a timeout's message names it
   * @return whether the job ended
   * @throws AssertionError when the job neither ends nor is done within {@code minutes}
   */
  boolean drive(
      JobClient job,
      String what,
      List<Planned> faults,
      int minutes,
      BooleanSupplier done,
      Tick tick)
      throws Exception {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(minutes);
    int next = 0;
    long armAt = faults.isEmpty() ? 0 : System.nanoTime() + millis(faults.get(0).pauseMillis());
    while (!job.getJobStatus().get().isGloballyTerminalState()) {
      if (System.nanoTime() > deadline) {
        job.cancel();
        throw new AssertionError(what + " did not finish in " + minutes + " minutes");
      }
      if (next == faults.size() && done.getAsBoolean()) {
        return false;
      }
      if (next < faults.size() && System.nanoTime() >= armAt) {
        arm(faults.get(next++));
        if (next < faults.size()) {
          armAt = System.nanoTime() + millis(faults.get(next).pauseMillis());
        }
      }
      tick.run();
      Thread.sleep(TICK_MILLIS);
    }
    return true;
  }

  /** Removes every fault armed and not yet fired. */
  void clear() {
    server.faults().clear();
    ChaosMapper.disarm();
    S3FaultInterceptor.clear();
  }

  /** The faults armed so far and, of them, those that fired. */
  ChaosTally tally() {
    ChaosTally tally = new ChaosTally();
    tally.add(armed);
    tally.fire(Fault.WRITER_FAILS_MID_FILE, writerFailures.count());
    tally.fire(Fault.S3_CONNECTION_RESETS, S3FaultInterceptor.resetsFired());
    tally.fire(Fault.S3_SLOW_DOWN, S3FaultInterceptor.slowDownsFired());
    tally.fire(Fault.CATALOG_COMMIT_FAILS, server.faults().failuresFired(UPDATE_TABLE));
    tally.fire(Fault.CATALOG_RESPONSE_LOST, server.faults().dropsFired(UPDATE_TABLE));
    tally.fire(Fault.CATALOG_CREDENTIALS_FAIL, server.faults().failuresFired(TABLE_CREDENTIALS));
    tally.fire(Fault.TASK_MANAGER_LOST, taskManagersLost);
    return tally;
  }

  private void arm(Planned planned) throws Exception {
    armed.arm(planned.fault());
    switch (planned.fault()) {
      case WRITER_FAILS_MID_FILE -> ChaosMapper.failNextRow();
      case S3_CONNECTION_RESETS -> S3FaultInterceptor.resetNext(planned.burst());
      case S3_SLOW_DOWN -> S3FaultInterceptor.slowDownNext(planned.burst());
      case CATALOG_COMMIT_FAILS ->
          server.faults().failNext(UPDATE_TABLE, planned.burst(), planned.status());
      case CATALOG_RESPONSE_LOST -> server.faults().dropResponseOfNext(UPDATE_TABLE, 1);
      case CATALOG_CREDENTIALS_FAIL -> server.faults().failNext(TABLE_CREDENTIALS, 1, 503);
      case TASK_MANAGER_LOST -> {
        // Fires at once: the TaskManager is gone when the call returns.
        taskManagers.replace(cluster, planned.victim());
        taskManagersLost++;
      }
    }
  }

  private static long millis(long millis) {
    return TimeUnit.MILLISECONDS.toNanos(millis);
  }

  /**
   * The TaskManagers of one MiniCluster that are running. MiniCluster indexes TaskManagers by start
   * order and keeps terminated ones in its list; a cluster starts with {@code 0 .. n-1}.
   */
  static final class TaskManagers {
    private final List<Integer> live = new ArrayList<>();
    private int started;

    TaskManagers(int initial) {
      for (int i = 0; i < initial; i++) {
        live.add(i);
      }
      started = initial;
    }

    /** Terminates the running TaskManager {@code victim} picks, then starts a new one. */
    void replace(MiniCluster cluster, int victim) throws Exception {
      int index = live.remove(victim % live.size());
      cluster.terminateTaskManager(index).get(1, TimeUnit.MINUTES);
      cluster.startTaskManager();
      live.add(started++);
    }
  }
}
