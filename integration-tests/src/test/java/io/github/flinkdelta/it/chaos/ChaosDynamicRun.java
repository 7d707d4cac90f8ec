/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.chaos;

import io.github.flinkdelta.it.dynamic.ShopEvents;
import io.github.flinkdelta.it.dynamic.ShopTopic;
import io.github.flinkdelta.it.support.CatalogReads;
import io.github.flinkdelta.it.support.FaultCounter;
import io.github.flinkdelta.it.support.FlinkCluster;
import io.github.flinkdelta.it.support.S3FaultInterceptor;
import io.github.flinkdelta.kafkatestkit.KafkaBroker;
import io.github.flinkdelta.s3testkit.CredentialEnforcingProxy;
import io.github.flinkdelta.sink.DeltaSink;
import io.github.flinkdelta.sink.DeltaSinkOptions;
import io.github.flinkdelta.sink.dynamic.debezium.DebeziumJson;
import io.github.flinkdelta.sink.dynamic.debezium.DebeziumMessage;
import io.github.flinkdelta.testkit.UnityCatalogServer;
import io.github.flinkdelta.uc.Secret;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.testutils.junit.SharedObjectsExtension;

/**
 * A chaos run of the dynamic sink: a shop database's Debezium change events ({@link ShopEvents})
 * from a real Kafka broker into one Unity Catalog managed table on S3 per source table, through
 * {@link DebeziumJson} with no code but the template, under every kind of fault of the seed's
 * {@link ChaosSchedule}. Besides the seeded faults, the job fails once right after the first event
 * with the column the source adds mid-stream and once right after the first event of the table that
 * appears later, so that a schema change and a table's creation each fall into a checkpoint that
 * fails. Every table must then hold exactly the events' replay, with no version missing.
 */
final class ChaosDynamicRun {

  private static final String TOKEN = "chaos-token";

  /** Events after the plan's rows: commits of the last tables' rows come after the faults too. */
  private static final long EXTRA_EVENTS = 2_000;

  private final FlinkCluster flink;
  private final MiniCluster cluster;
  private final ChaosInjector.TaskManagers taskManagers;
  private final SharedObjectsExtension shared;
  private final ChaosStorage storage;
  private final KafkaBroker kafka;

  ChaosDynamicRun(
      FlinkCluster flink,
      MiniCluster cluster,
      ChaosInjector.TaskManagers taskManagers,
      SharedObjectsExtension shared,
      ChaosStorage storage,
      KafkaBroker kafka) {
    this.flink = flink;
    this.cluster = cluster;
    this.taskManagers = taskManagers;
    this.shared = shared;
    this.storage = storage;
    this.kafka = kafka;
  }

  /**
   * What a run left and counted.
   *
   * @param events the events sent
   * @param expected the rows each table holds once every event is applied, by table and key
   * @param reads each table at the end, by its name in the events
   * @param missingVersions per table, the versions 0 to the catalog's latest with no commit file
   * @param shapeFailures the failures thrown after a schema change and after a new table
   */
  record Result(
      long events,
      Map<String, Map<Long, List<Object>>> expected,
      Map<String, CatalogReads.Read> reads,
      Map<String, List<Long>> missingVersions,
      ChaosTally faults,
      int shapeFailures,
      int s3RequestsFaulted,
      long refusedExpired) {}

  Result run(long seed) throws Exception {
    ChaosSchedule schedule = ChaosSchedule.of(seed);
    long count = schedule.rows() + EXTRA_EVENTS;
    ShopEvents events = new ShopEvents(count);
    String prefix = "dynamic-" + Long.toHexString(seed);
    ShopTopic topic = ShopTopic.produce(kafka, prefix, events, count);
    int firstKey = storage.keysVended();
    FaultCounter writerFailures = FaultCounter.in(shared);
    FaultCounter afterNewColumn = FaultCounter.in(shared);
    FaultCounter afterNewTable = FaultCounter.in(shared);
    try (UnityCatalogServer server = storage.catalog(prefix, TOKEN)) {
      ChaosInjector injector = new ChaosInjector(server, cluster, taskManagers, writerFailures);
      UnityCatalogConnection connection =
          new UnityCatalogConnection(server.uri(), Secret.of(TOKEN));
      StreamExecutionEnvironment env = flink.job().checkpointEveryMillis(200).restarts(1_000).env();
      // Kafka keeps each key's events in order in its partition, and the sink keeps them from
      // there to their table's writer: no shuffle before the sink.
      env.fromSource(
              topic.source("chaos-" + prefix), WatermarkStrategy.noWatermarks(), "debezium events")
          .map(new PacedShapeFailures(afterNewColumn, afterNewTable, env.getParallelism()))
          .map(new ChaosMapper<>(writerFailures))
          .sinkTo(
              DeltaSink.dynamic(DebeziumJson.tables("{db}.{table}"))
                  .unityCatalog(connection)
                  .defaultNamespace("main")
                  .hadoopOptions(storage.storageOptions())
                  .option(DeltaSinkOptions.DELTA_CHECKPOINT_INTERVAL, 3)
                  .build());
      JobClient job = env.executeAsync("chaos dynamic " + prefix);
      injector.drive(
          job, "the dynamic run with seed " + seed, schedule.faults(), 4, () -> false, () -> {});
      injector.clear();
      job.getJobExecutionResult().get();

      Map<String, Map<Long, List<Object>>> expected = events.expected();
      Map<String, CatalogReads.Read> reads = new LinkedHashMap<>();
      Map<String, List<Long>> missing = new LinkedHashMap<>();
      for (String table : expected.keySet()) {
        String name = "main." + table;
        CatalogReads.Read read = CatalogReads.read(connection, name, storage.storageOptions());
        reads.put(table, read);
        missing.put(
            table,
            storage.missingVersionsAt(
                CatalogReads.table(connection, name).location(), server.latestVersion(name)));
      }
      return new Result(
          count,
          expected,
          reads,
          missing,
          injector.tally(),
          afterNewColumn.count() + afterNewTable.count(),
          S3FaultInterceptor.injected(),
          storage.keysSince(firstKey).stream()
              .mapToLong(CredentialEnforcingProxy.KeyStats::refusedExpired)
              .sum());
    } finally {
      ChaosMapper.disarm();
      S3FaultInterceptor.clear();
    }
  }

  /**
   * Lets events through at {@link ChaosSchedule#ROWS_PER_SECOND} in all (the plan's faults arrive
   * while the job runs), and fails its subtask on the event after its first of a new shape, once
   * per shape in the whole run: the first order with the added column {@code note}, the first event
   * of {@code shop.returns}.
   */
  private static final class PacedShapeFailures
      extends RichMapFunction<DebeziumMessage, DebeziumMessage> {
    private final FaultCounter afterNewColumn;
    private final FaultCounter afterNewTable;
    private final int subtasks;
    private transient long started;
    private transient long seen;
    private transient boolean seenNewColumn;
    private transient boolean seenNewTable;
    private transient FaultCounter failNext;

    PacedShapeFailures(FaultCounter afterNewColumn, FaultCounter afterNewTable, int subtasks) {
      this.afterNewColumn = afterNewColumn;
      this.afterNewTable = afterNewTable;
      this.subtasks = subtasks;
    }

    @Override
    public DebeziumMessage map(DebeziumMessage message) throws InterruptedException {
      if (started == 0) {
        started = System.nanoTime();
      }
      long due = started + seen++ * 1_000_000_000L * subtasks / ChaosSchedule.ROWS_PER_SECOND;
      long wait = due - System.nanoTime();
      if (wait > 0) {
        Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
      }
      if (failNext != null && failNext.count() == 0) {
        failNext.fire();
        throw new IllegalStateException("Injected failure right after a new shape's first event");
      }
      failNext = null;
      String value = new String(message.value(), StandardCharsets.UTF_8);
      if (!seenNewColumn && value.contains("\"field\":\"note\"")) {
        seenNewColumn = true;
        failNext = afterNewColumn;
      } else if (!seenNewTable && value.contains("\"table\":\"returns\"")) {
        seenNewTable = true;
        failNext = afterNewTable;
      }
      return message;
    }
  }
}
