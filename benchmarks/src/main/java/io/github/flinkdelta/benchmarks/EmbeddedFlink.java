/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.WebOptions;
import org.apache.flink.runtime.checkpoint.AbstractCheckpointStats;
import org.apache.flink.runtime.checkpoint.CheckpointStatsStatus;
import org.apache.flink.runtime.jobmaster.JobResult;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraph;

/**
 * An embedded Flink cluster of one TaskManager that keeps the checkpoint history of its jobs and
 * stores checkpoints on local disk, as production jobs store them on a file system.
 */
final class EmbeddedFlink implements AutoCloseable {

  private final MiniCluster cluster;

  EmbeddedFlink(int slots, Path checkpoints) throws Exception {
    this(slots, checkpoints, 100_000);
  }

  /**
   * @param checkpointHistory completed checkpoints whose statistics are kept; long runs keep
   *     Flink's default, as every kept checkpoint holds heap
   */
  EmbeddedFlink(int slots, Path checkpoints, int checkpointHistory) throws Exception {
    this(slots, checkpoints, checkpointHistory, new Configuration());
  }

  /**
   * @param extra settings on top of these, such as the state backend
   */
  EmbeddedFlink(int slots, Path checkpoints, int checkpointHistory, Configuration extra)
      throws Exception {
    Configuration conf = new Configuration();
    conf.set(CheckpointingOptions.CHECKPOINT_STORAGE, "filesystem");
    conf.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, checkpoints.toUri().toString());
    conf.set(WebOptions.CHECKPOINTS_HISTORY_SIZE, checkpointHistory);
    conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
    // Any free port, so that clusters of runs side by side (a soak and a test, say) never clash.
    conf.set(RestOptions.BIND_PORT, "0");
    conf.addAll(extra);
    cluster =
        new MiniCluster(
            new MiniClusterConfiguration.Builder()
                .setConfiguration(conf)
                .setNumTaskManagers(1)
                .setNumSlotsPerTaskManager(slots)
                .build());
    cluster.start();
  }

  JobID submit(StreamExecutionEnvironment env) throws Exception {
    StreamGraph graph = env.getStreamGraph();
    // Flink 2.3's MiniCluster takes the job id from the graph; execute() would have set one.
    graph.setJobId(new JobID());
    return cluster.submitJob(graph).get().getJobID();
  }

  /** Waits for the job to end and fails with its cause unless it finished. */
  void awaitSuccess(JobID job, String what) throws Exception {
    JobResult result = cluster.requestJobResult(job).get();
    if (!result.isSuccess()) {
      throw new IllegalStateException(
          what + " failed",
          result
              .getSerializedThrowable()
              .orElseThrow()
              .deserializeError(EmbeddedFlink.class.getClassLoader()));
    }
  }

  MiniCluster cluster() {
    return cluster;
  }

  /** The ids of the job's vertices whose name contains {@code name}. */
  List<org.apache.flink.runtime.jobgraph.JobVertexID> vertices(JobID job, String name)
      throws Exception {
    List<org.apache.flink.runtime.jobgraph.JobVertexID> ids = new ArrayList<>();
    cluster
        .getArchivedExecutionGraph(job)
        .get()
        .getAllVertices()
        .forEach(
            (id, vertex) -> {
              if (vertex.getName().contains(name)) {
                ids.add(id);
              }
            });
    return ids;
  }

  /** The job's completed checkpoints, oldest first. */
  List<AbstractCheckpointStats> completedCheckpoints(JobID job) throws Exception {
    List<AbstractCheckpointStats> completed = new ArrayList<>();
    for (AbstractCheckpointStats checkpoint :
        cluster
            .getArchivedExecutionGraph(job)
            .get()
            .getCheckpointStatsSnapshot()
            .getHistory()
            .getCheckpoints()) {
      if (checkpoint.getStatus() == CheckpointStatsStatus.COMPLETED) {
        completed.add(checkpoint);
      }
    }
    completed.sort((a, b) -> Long.compare(a.getCheckpointId(), b.getCheckpointId()));
    return completed;
  }

  /**
   * Adds each checkpoint of the running job that the kept history shows completed, with its
   * completion moment, to {@code completed}; called often enough, it sees every checkpoint of a
   * long run that keeps only the default history.
   */
  void recordCompletedCheckpoints(JobID job, java.util.Map<Long, Long> completed) {
    try {
      for (AbstractCheckpointStats checkpoint :
          cluster
              .getArchivedExecutionGraph(job)
              .get()
              .getCheckpointStatsSnapshot()
              .getHistory()
              .getCheckpoints()) {
        if (checkpoint.getStatus() == CheckpointStatsStatus.COMPLETED) {
          completed.putIfAbsent(checkpoint.getCheckpointId(), checkpoint.getLatestAckTimestamp());
        }
      }
    } catch (Exception e) {
      // The job is ending: the samples before are what there is.
    }
  }

  @Override
  public void close() throws Exception {
    cluster.close();
  }
}
