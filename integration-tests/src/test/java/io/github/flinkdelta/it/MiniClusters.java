package io.github.flinkdelta.it;

import java.time.Duration;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;

/** The Flink MiniCluster the end-to-end tests share, and environments configured for them. */
final class MiniClusters {

  private MiniClusters() {}

  static MiniClusterExtension extension() {
    return new MiniClusterExtension(
        new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(4)
            .build());
  }

  /** Checkpoints every {@code checkpointMs}; up to {@code restarts} restarts without delay. */
  static StreamExecutionEnvironment env(long checkpointMs, int restarts, int parallelism) {
    return env(checkpointMs, restarts, parallelism, null);
  }

  /** As {@link #env(long, int, int)}, restoring from {@code savepoint} when it is not null. */
  static StreamExecutionEnvironment env(
      long checkpointMs, int restarts, int parallelism, String savepoint) {
    Configuration conf = new Configuration();
    if (savepoint != null) {
      conf.set(StateRecoveryOptions.SAVEPOINT_PATH, savepoint);
    }
    conf.set(RestartStrategyOptions.RESTART_STRATEGY, restarts > 0 ? "fixed-delay" : "none");
    conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, restarts);
    conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(50));
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
    env.setParallelism(parallelism);
    if (checkpointMs > 0) {
      env.enableCheckpointing(checkpointMs);
    }
    return env;
  }
}
