/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.cdc;

import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.runtime.minicluster.MiniCluster;

/** A MiniCluster's TaskManagers, lost and replaced one at a time, the oldest first. */
final class TaskManagers {
  private final MiniCluster cluster;
  private int next;
  private long lastLoss;

  TaskManagers(MiniCluster cluster) {
    this.cluster = cluster;
  }

  /** Terminates the oldest running TaskManager and starts a new one; done when it returns. */
  void replaceOne() throws Exception {
    lastLoss = System.currentTimeMillis();
    cluster.terminateTaskManager(next++).get();
    cluster.startTaskManager();
  }

  /** Whether {@code job} went through a restart since the last TaskManager was lost. */
  boolean restartedSinceLastLoss(JobID job) throws Exception {
    return cluster.getExecutionGraph(job).get().getStatusTimestamp(JobStatus.RESTARTING)
        >= lastLoss;
  }
}
