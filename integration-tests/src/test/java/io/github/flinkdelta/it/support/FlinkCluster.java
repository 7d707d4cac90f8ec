/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.support;

import java.time.Duration;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExternalizedCheckpointRetention;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * A Flink MiniCluster shared by the tests of a class (register it on a static field), and job
 * environments on it with named settings:
 *
 * <pre>{@code
 * @RegisterExtension static final FlinkCluster FLINK = FlinkCluster.create();
 *
 * StreamExecutionEnvironment env = FLINK.job().checkpointEveryMillis(100).restarts(5).env();
 * }</pre>
 */
public final class FlinkCluster
    implements BeforeAllCallback,
        AfterAllCallback,
        BeforeEachCallback,
        AfterEachCallback,
        ParameterResolver {

  private final MiniClusterExtension cluster;

  private FlinkCluster(MiniClusterResourceConfiguration configuration) {
    this.cluster = new MiniClusterExtension(configuration);
  }

  /** One TaskManager with four slots. */
  public static FlinkCluster create() {
    return of(
        new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(4)
            .build());
  }

  public static FlinkCluster of(MiniClusterResourceConfiguration configuration) {
    return new FlinkCluster(configuration);
  }

  /**
   * Settings of a job on this cluster: by default parallelism 2, no checkpoints and no restarts.
   */
  public Job job() {
    return new Job();
  }

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    cluster.beforeAll(context);
  }

  @Override
  public void beforeEach(ExtensionContext context) throws Exception {
    cluster.beforeEach(context);
  }

  @Override
  public void afterEach(ExtensionContext context) throws Exception {
    cluster.afterEach(context);
  }

  @Override
  public void afterAll(ExtensionContext context) throws Exception {
    cluster.afterAll(context);
  }

  /** Resolves Flink's {@code @InjectClusterClient} and {@code @InjectMiniCluster} parameters. */
  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return cluster.supportsParameter(parameter, context);
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    return cluster.resolveParameter(parameter, context);
  }

  /** A job's settings, each named; {@link #env()} makes the environment. */
  public static final class Job {
    private long checkpointIntervalMillis;
    private int restarts;
    private int parallelism = 2;
    private String savepoint;
    private String retainedCheckpoints;
    private boolean genericTypes = true;

    private Job() {}

    /** Checkpoints every {@code millis}; without this call, the job takes no checkpoints. */
    public Job checkpointEveryMillis(long millis) {
      this.checkpointIntervalMillis = millis;
      return this;
    }

    /** Up to {@code attempts} restarts after failures, without delay between them. */
    public Job restarts(int attempts) {
      this.restarts = attempts;
      return this;
    }

    public Job parallelism(int parallelism) {
      this.parallelism = parallelism;
      return this;
    }

    /** Restores the job from a savepoint or retained checkpoint. */
    public Job restoredFrom(String path) {
      this.savepoint = path;
      return this;
    }

    /**
     * Writes checkpoints under {@code directory} (a URI) and keeps them when the job fails or is
     * cancelled, so a later job can be restored from one.
     */
    public Job retainingCheckpointsIn(String directory) {
      this.retainedCheckpoints = directory;
      return this;
    }

    /** Refuses Kryo: every type of the job needs a serializer of its own. */
    public Job withoutGenericTypes() {
      this.genericTypes = false;
      return this;
    }

    public StreamExecutionEnvironment env() {
      Configuration conf = new Configuration();
      conf.set(PipelineOptions.GENERIC_TYPES, genericTypes);
      if (savepoint != null) {
        conf.set(StateRecoveryOptions.SAVEPOINT_PATH, savepoint);
      }
      if (retainedCheckpoints != null) {
        conf.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, retainedCheckpoints);
        conf.set(
            CheckpointingOptions.EXTERNALIZED_CHECKPOINT_RETENTION,
            ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION);
      }
      conf.set(RestartStrategyOptions.RESTART_STRATEGY, restarts > 0 ? "fixed-delay" : "none");
      conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, restarts);
      conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(50));
      StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
      env.setParallelism(parallelism);
      if (checkpointIntervalMillis > 0) {
        env.enableCheckpointing(checkpointIntervalMillis);
        // A checkpoint starts no sooner than one interval after the last one ended. Without it,
        // Flink 2.3 takes a job's first checkpoint at once (its scheduler starts twice, the second
        // time after the minimum pause), and a test of one checkpoint per long interval breaks.
        env.getCheckpointConfig().setMinPauseBetweenCheckpoints(checkpointIntervalMillis);
      }
      return env;
    }
  }
}
