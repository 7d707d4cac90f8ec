/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.dynamic;

import io.github.flinkdelta.it.support.Await;
import io.github.flinkdelta.it.support.FlinkCluster;
import io.github.flinkdelta.it.support.IndexGate;
import io.github.flinkdelta.sink.dynamic.DynamicDeltaSinkBuilder;
import io.github.flinkdelta.sink.dynamic.DynamicSinkOptions;
import io.github.flinkdelta.sink.dynamic.TableEventPolicy;
import java.util.function.BooleanSupplier;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.testutils.junit.SharedObjectsExtension;

/**
 * Jobs whose generator truncates or drops tables ({@code sink.dynamic.table-events = APPLY}) on
 * indexes {@code 0 .. count - 1}, all through one router, in order, with failures the generator
 * injects.
 */
public final class TableEventJobs {

  private TableEventJobs() {}

  /**
   * Runs {@code sink} until the generator waits at its gate before its last element and {@code
   * holdsTheElementBefore} says the tables hold the one before it (every event is committed then,
   * and nothing of them is held any more); then lets the input end.
   */
  public static void run(
      FlinkCluster flink,
      SharedObjectsExtension shared,
      long count,
      DynamicDeltaSinkBuilder<Long> sink,
      BooleanSupplier holdsTheElementBefore)
      throws Exception {
    // The generator waits before its last element: the input does not end in the checkpoint
    // interval of an event, which would leave the rows after it uncommitted.
    IndexGate gate = IndexGate.before(shared, count - 1);
    StreamExecutionEnvironment env =
        flink.job().checkpointEveryMillis(100).restarts(5).parallelism(2).env();
    env.fromSource(
            new DataGeneratorSource<>(gate.indexes(), count, gate.limiter(), Types.LONG),
            WatermarkStrategy.noWatermarks(),
            "indexes")
        .setParallelism(1)
        .sinkTo(
            sink
                // Every element reaches one router, in order; keyed rows go to two upsert writers.
                .distributeBy(new OneRouter())
                .option(DynamicSinkOptions.TABLE_EVENTS, TableEventPolicy.APPLY)
                .build());
    JobClient job = env.executeAsync("table events");
    Await.until(
        job,
        "the tables holding element " + (count - 2) + ", the generator at its gate",
        () -> gate.holds() && holdsTheElementBefore.getAsBoolean());
    gate.open();
    job.getJobExecutionResult().get();
  }

  /** Keys every element alike: one router takes them all, in order. */
  private static final class OneRouter implements KeySelector<Long, Integer> {
    @Override
    public Integer getKey(Long element) {
      return 0;
    }
  }
}
