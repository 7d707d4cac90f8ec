/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.dynamic;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkdelta.it.support.CatalogReads;
import io.github.flinkdelta.it.support.FaultCounter;
import io.github.flinkdelta.it.support.FlinkCluster;
import io.github.flinkdelta.it.support.TestRows;
import io.github.flinkdelta.it.support.UpsertAssert;
import io.github.flinkdelta.kafkatestkit.KafkaBroker;
import io.github.flinkdelta.sink.DeltaSink;
import io.github.flinkdelta.sink.dynamic.debezium.DebeziumJson;
import io.github.flinkdelta.sink.dynamic.debezium.DebeziumMessage;
import io.github.flinkdelta.source.DeltaSource;
import io.github.flinkdelta.testkit.UnityCatalogServer;
import io.github.flinkdelta.testkit.UnityCatalogServerExtension;
import io.github.flinkdelta.uc.Secret;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.testutils.junit.SharedObjectsExtension;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A database's Debezium change events from a real Kafka broker (KRaft, in a child JVM) into Unity
 * Catalog managed tables, with no code but the template: keyed tables hold each key's last row, a
 * column the source added appears, a table that appears mid-stream is created, all exactly once
 * through two task failures.
 */
class DynamicKafkaDebeziumITCase {

  @RegisterExtension static final FlinkCluster FLINK = FlinkCluster.create();
  @RegisterExtension final SharedObjectsExtension shared = SharedObjectsExtension.create();
  private final FaultCounter injected = FaultCounter.in(shared);

  private static final String TOKEN = "uc-test-token";
  private static final String TOPIC = "shop";

  @RegisterExtension
  final UnityCatalogServerExtension catalog =
      new UnityCatalogServerExtension(uc -> uc.token(TOKEN));

  @TempDir static Path kafkaDirectory;
  private static KafkaBroker kafka;

  @BeforeAll
  static void startKafka() {
    kafka = KafkaBroker.start(kafkaDirectory.resolve("kafka"));
  }

  @AfterAll
  static void stopKafka() {
    if (kafka != null) {
      kafka.close();
    }
  }

  @Test
  void aDatabasesChangeEventsFromKafkaLandInOneManagedTableEachExactlyOnce() throws Exception {
    long count = 8_000;
    ShopEvents events = new ShopEvents(count);
    ShopTopic topic = ShopTopic.produce(kafka, TOPIC, events, count);
    UnityCatalogServer server = catalog.server();
    UnityCatalogConnection connection = new UnityCatalogConnection(server.uri(), Secret.of(TOKEN));

    StreamExecutionEnvironment env = FLINK.job().checkpointEveryMillis(100).restarts(5).env();
    // Kafka keeps each key's events in order in its partition, and the sink keeps them from there
    // to their table's writer: no shuffle before the sink.
    env.fromSource(
            topic.source("delta-dynamic-it"),
            WatermarkStrategy.noWatermarks(),
            "debezium events from kafka")
        .map(new FailTwice(injected))
        .sinkTo(
            DeltaSink.dynamic(DebeziumJson.tables("{db}.{table}"))
                .unityCatalog(connection)
                .defaultNamespace("main")
                .build());
    env.execute("debezium from kafka to unity catalog");

    assertThat(injected.count()).isEqualTo(2);
    Map<String, Map<Long, List<Object>>> expected = events.expected();
    assertThat(expected).containsKeys("shop.orders", "shop.customers", "shop.returns");
    expected.forEach(
        (table, rows) -> {
          String name = "main." + table;
          assertThat(CatalogReads.table(connection, name).managed())
              .as("%s managed", name)
              .isTrue();
          CatalogReads.Read read = CatalogReads.read(connection, name);
          UpsertAssert.assertRows(read.rows(), rows, name);
          // The catalog ratified every version the table has.
          assertThat(server.latestVersion(name)).isEqualTo(read.version());
        });
    assertThat(CatalogReads.read(connection, "main.shop.orders").schema().fieldNames())
        .containsExactly("id", "item", "qty", "note");
    UpsertAssert.assertRows(
        readThroughTheSource(connection, "main.shop.orders"),
        expected.get("shop.orders"),
        "the project's source's read of main.shop.orders");
  }

  private static List<List<Object>> readThroughTheSource(
      UnityCatalogConnection connection, String table) throws Exception {
    DeltaSource source =
        DeltaSource.builder().unityCatalog(connection).tableName(table).bounded().build();
    RowType type = source.columnTypes();
    List<List<Object>> read = new ArrayList<>();
    try (CloseableIterator<RowData> rows =
        FLINK
            .job()
            .env()
            .fromSource(source, WatermarkStrategy.noWatermarks(), "read back")
            .executeAndCollect()) {
      rows.forEachRemaining(row -> read.add(TestRows.values(row, type)));
    }
    return read;
  }

  /**
   * Fails subtask 0 after 1,000 events and, after the restart, after 1,500, once each; sleeps a
   * millisecond every fourth event, so that the stream spans many checkpoints.
   */
  private static final class FailTwice extends RichMapFunction<DebeziumMessage, DebeziumMessage> {
    private final FaultCounter injected;
    private long seen;

    FailTwice(FaultCounter injected) {
      this.injected = injected;
    }

    @Override
    public DebeziumMessage map(DebeziumMessage message) throws InterruptedException {
      seen++;
      if (seen % 4 == 0) {
        Thread.sleep(1);
      }
      boolean failing = getRuntimeContext().getTaskInfo().getIndexOfThisSubtask() == 0;
      if (failing
          && ((injected.count() == 0 && seen == 1_000)
              || (injected.count() == 1 && seen == 1_500))) {
        injected.fire();
        throw new IllegalStateException("Injected failure after " + seen + " events");
      }
      return message;
    }
  }
}
