/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.dynamic;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.it.support.FaultCounter;
import io.github.flinkdelta.it.support.FlinkCluster;
import io.github.flinkdelta.it.support.UpsertAssert;
import io.github.flinkdelta.sink.DeltaSink;
import io.github.flinkdelta.sink.dynamic.debezium.DebeziumJson;
import io.github.flinkdelta.sink.dynamic.debezium.DebeziumMessage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.testutils.junit.SharedObjectsExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Debezium change events of a whole database into one table each, with no code but the template:
 * keyed tables hold each key's last row, a column the source added appears, a table that appears
 * mid-stream is created, all exactly once through failures.
 */
class DynamicDebeziumITCase {

  @RegisterExtension static final FlinkCluster FLINK = FlinkCluster.create();
  @RegisterExtension final SharedObjectsExtension shared = SharedObjectsExtension.create();
  private final FaultCounter injected = FaultCounter.in(shared);

  @TempDir Path dir;

  @Test
  void aDatabasesChangeEventsLandInOneTableEachExactlyOnce() throws Exception {
    long count = 8_000;
    ShopEvents events = new ShopEvents(count);
    StreamExecutionEnvironment env = FLINK.job().checkpointEveryMillis(100).restarts(5).env();
    env.fromSource(
            new DataGeneratorSource<>(
                events::event,
                count,
                RateLimiterStrategy.perSecond(4_000),
                TypeInformation.of(DebeziumMessage.class)),
            WatermarkStrategy.noWatermarks(),
            "debezium events")
        .setParallelism(1)
        .map(new FailTwice(injected))
        .setParallelism(1)
        .sinkTo(
            DeltaSink.dynamic(DebeziumJson.tables("{db}.{table}"))
                .tableRoot(dir.toUri().toString())
                // A key's events reach one writer in order, as Kafka partitions them by key.
                .distributeBy(new ByKey())
                .build());
    env.execute("debezium to delta");

    assertThat(injected.count()).isEqualTo(2);
    Map<String, Map<Long, List<Object>>> expected = events.expected();
    assertThat(expected.get("shop.returns")).isNotEmpty();
    expected.forEach((table, rows) -> UpsertAssert.assertExact(path(table), rows));
    try (var reader = io.github.flinkdelta.core.testing.TestTables.open(path("shop.orders"))) {
      assertThat(reader.snapshot().getSchema().fieldNames())
          .containsExactly("id", "item", "qty", "note");
    }
    assertThat(DeltaTableReader.properties(path("shop.orders")))
        .containsEntry("flink.primary-key", "id");
  }

  /** Fails after 2,000 and after 5,000 events, once each. */
  private static final class FailTwice extends RichMapFunction<DebeziumMessage, DebeziumMessage> {
    private final FaultCounter injected;
    private long seen;

    FailTwice(FaultCounter injected) {
      this.injected = injected;
    }

    @Override
    public DebeziumMessage map(DebeziumMessage message) {
      seen++;
      if ((injected.count() == 0 && seen == 2_000) || (injected.count() == 1 && seen == 3_000)) {
        injected.fire();
        throw new IllegalStateException("Injected failure after " + seen + " events");
      }
      return message;
    }
  }

  /** Keys an event by its table's key message. */
  private static final class ByKey implements KeySelector<DebeziumMessage, String> {
    @Override
    public String getKey(DebeziumMessage message) {
      return new String(message.key(), StandardCharsets.UTF_8);
    }
  }

  private String path(String table) {
    return dir.resolve(table.replace('.', '/')).toUri().toString();
  }
}
