/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.dynamic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.it.support.CatalogReads;
import io.github.flinkdelta.it.support.DeltaLogFiles;
import io.github.flinkdelta.it.support.FaultCounter;
import io.github.flinkdelta.it.support.FlinkCluster;
import io.github.flinkdelta.it.support.SharedSpark;
import io.github.flinkdelta.it.support.TestRows;
import io.github.flinkdelta.it.support.UpsertAssert;
import io.github.flinkdelta.sink.DeltaSink;
import io.github.flinkdelta.sink.dynamic.DynamicDeltaSinkBuilder;
import io.github.flinkdelta.sink.dynamic.DynamicRecord;
import io.github.flinkdelta.sink.dynamic.DynamicRecordGenerator;
import io.github.flinkdelta.sink.dynamic.DynamicSinkOptions;
import io.github.flinkdelta.sink.dynamic.DynamicTable;
import io.github.flinkdelta.sink.dynamic.TableChange;
import io.github.flinkdelta.sink.dynamic.TableEventPolicy;
import io.github.flinkdelta.sparktestkit.SparkSql;
import io.github.flinkdelta.testkit.UnityCatalogServer;
import io.github.flinkdelta.testkit.UnityCatalogServerExtension;
import io.github.flinkdelta.uc.Secret;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.TreeMap;
import java.util.function.Function;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.testutils.junit.SharedObjectsExtension;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tables truncated at the source ({@link DynamicSinkOptions#TABLE_EVENTS}): refused by default,
 * ignored on request, and applied in order with the rows: every row before a truncation gone, every
 * row after it kept, on an appending table and on a table with a primary key (whose upsert writers
 * take the removed rows out of their key indexes), through failures right after a truncation, read
 * back through Kernel and delta-spark; on path tables and on Unity Catalog managed tables.
 */
class DynamicTruncationITCase {

  @RegisterExtension static final FlinkCluster FLINK = FlinkCluster.create();
  @RegisterExtension final SharedObjectsExtension shared = SharedObjectsExtension.create();
  private final FaultCounter injected = FaultCounter.in(shared);

  private static final int BUCKETS = 5;
  private static final long COUNT = 3_000;
  private static final long FIRST = 1_000;
  private static final long SECOND = 2_000;

  @TempDir Path dir;

  private static final String TOKEN = "uc-test-token";

  @RegisterExtension
  final UnityCatalogServerExtension catalog =
      new UnityCatalogServerExtension(uc -> uc.token(TOKEN));

  @Test
  void truncationsRemoveEveryRowBeforeThemAndKeepEveryRowAfterThemThroughFailures()
      throws Exception {
    String events = dir.resolve("db/events").toUri().toString();
    String keyed = dir.resolve("db/keyed").toUri().toString();
    runTruncations(
        DeltaSink.dynamic(new TruncatedTables(injected)).tableRoot(dir.toUri().toString()),
        table -> rowsOf(table.equals("db.events") ? events : keyed));

    List<List<Object>> kept = keptEvents();
    Map<Long, List<Object>> latest = latestKeyed();
    assertThat(DeltaTableReader.readAll(events)).containsExactlyInAnyOrderElementsOf(kept);
    // Keys 20 to 49 were last written before the second truncation: none of them is left.
    UpsertAssert.assertExact(keyed, latest);
    // Each truncation once, though both were sent again after a failure: one version per
    // checkpoint that truncates (both truncations may fall into one checkpoint).
    for (String table : List.of(events, keyed)) {
      List<Long> truncations = truncations(table);
      assertThat(truncations).doesNotHaveDuplicates().hasSizeBetween(1, 2);
    }
    SparkSql spark = SharedSpark.get();
    assertThat(spark.query("SELECT * FROM delta.`" + events + "`"))
        .containsExactlyInAnyOrderElementsOf(strings(kept));
    assertThat(spark.query("SELECT id, v FROM delta.`" + keyed + "`"))
        .containsExactlyInAnyOrderElementsOf(strings(latest.values()));
  }

  /**
   * The same truncations into Unity Catalog managed tables (uc-testkit over HTTP): each truncation
   * is a version the catalog ratifies like any other, and the catalog's latest version of each
   * table holds exactly the rows after the second truncation.
   */
  @Test
  void managedTablesAreTruncatedThroughTheCatalogInOrderWithTheirRows() throws Exception {
    UnityCatalogServer server = catalog.server();
    UnityCatalogConnection connection = new UnityCatalogConnection(server.uri(), Secret.of(TOKEN));
    runTruncations(
        DeltaSink.dynamic(new TruncatedTables(injected))
            .unityCatalog(connection)
            .defaultNamespace("main"),
        table -> catalogRowsOf(connection, "main." + table));

    CatalogReads.Read events = CatalogReads.read(connection, "main.db.events");
    assertThat(events.rows()).containsExactlyInAnyOrderElementsOf(keptEvents());
    CatalogReads.Read keyed = CatalogReads.read(connection, "main.db.keyed");
    assertThat(keyed.rows()).containsExactlyInAnyOrderElementsOf(latestKeyed().values());
    assertThat(server.latestVersion("main.db.events")).isEqualTo(events.version());
    assertThat(server.latestVersion("main.db.keyed")).isEqualTo(keyed.version());
  }

  /**
   * Runs {@link TruncatedTables} into the tables {@code sink} makes, until both hold the element
   * before the last, as {@code rowsOf} reads them by name ({@code db.events}, {@code db.keyed}).
   */
  private void runTruncations(
      DynamicDeltaSinkBuilder<Long> sink, Function<String, List<List<Object>>> rowsOf)
      throws Exception {
    long last = COUNT - 2;
    TableEventJobs.run(
        FLINK,
        shared,
        COUNT,
        sink,
        () ->
            rowsOf.apply("db.events").stream().anyMatch(r -> (long) r.get(0) == last)
                && rowsOf.apply("db.keyed").contains(List.of(TruncatedTables.keyOf(last), last)));
    assertThat(injected.count()).isEqualTo(2);
  }

  /** The rows of {@code db.events} after the second truncation. */
  private static List<List<Object>> keptEvents() {
    return TestRows.expected(COUNT, BUCKETS).subList((int) SECOND, (int) COUNT);
  }

  /** The last value of each key of {@code db.keyed} written after the second truncation. */
  private static Map<Long, List<Object>> latestKeyed() {
    Map<Long, List<Object>> latest = new TreeMap<>();
    for (long i = SECOND; i < COUNT; i++) {
      latest.put(TruncatedTables.keyOf(i), List.of(TruncatedTables.keyOf(i), i));
    }
    return latest;
  }

  private static List<List<String>> strings(Collection<List<Object>> rows) {
    return rows.stream().map(row -> row.stream().map(String::valueOf).toList()).toList();
  }

  @Test
  void tableEventsFailTheJobNamingTheTableUnlessIgnored() throws Exception {
    StreamExecutionEnvironment env = FLINK.job().checkpointEveryMillis(100).parallelism(1).env();
    TestRows.source(env, 100, 1_000, BUCKETS)
        .sinkTo(DeltaSink.dynamic(new Truncating()).tableRoot(dir.toUri().toString()).build());
    assertThatThrownBy(() -> env.execute("truncate refused"))
        .satisfies(
            e ->
                assertThat(ExceptionUtils.stringifyException(e))
                    .contains("db/events was truncated at the source")
                    .contains(DynamicSinkOptions.TABLE_EVENTS.key()));
    String table = dir.resolve("db/events").toUri().toString();
    // Nothing after the event was committed: the rows before it, if a checkpoint took them, only.
    assertThat(DeltaTableReader.readAll(table)).allMatch(r -> (long) r.get(0) < 50);

    StreamExecutionEnvironment ignoring =
        FLINK.job().checkpointEveryMillis(100).parallelism(1).env();
    TestRows.source(ignoring, 100, 1_000, BUCKETS)
        .sinkTo(
            DeltaSink.dynamic(new Truncating())
                .tableRoot(dir.resolve("ignoring").toUri().toString())
                .option(DynamicSinkOptions.TABLE_EVENTS, TableEventPolicy.IGNORE)
                .build());
    ignoring.execute("truncate ignored");
    assertThat(DeltaTableReader.readAll(dir.resolve("ignoring/db/events").toUri().toString()))
        .containsExactlyInAnyOrderElementsOf(TestRows.expected(100, BUCKETS));
  }

  /** The rows of the catalog's table; none before the catalog knows it. */
  private static List<List<Object>> catalogRowsOf(UnityCatalogConnection connection, String name) {
    try {
      return CatalogReads.rows(connection, name);
    } catch (NoSuchElementException e) {
      return List.of();
    }
  }

  /** The rows of {@code table}; none before its first version. */
  private static List<List<Object>> rowsOf(String table) {
    Path first = Path.of(URI.create(table)).resolve("_delta_log/" + "0".repeat(20) + ".json");
    return Files.exists(first) ? DeltaTableReader.readAll(table) : List.of();
  }

  /** The transaction version of each of the sink's truncations the table's log records. */
  private static List<Long> truncations(String table) {
    List<Long> versions = new ArrayList<>();
    for (long version : DeltaLogFiles.versions(table)) {
      DeltaLogFiles.actions(table, version, "txn").stream()
          .filter(txn -> txn.get("appId").asText().endsWith("/truncates"))
          .forEach(txn -> versions.add(txn.get("version").asLong()));
    }
    return versions;
  }

  /**
   * Element {@code i} is a row of the appending table {@code db.events} and an update of key {@code
   * keyOf(i)} to {@code i} in {@code db.keyed}; both tables are truncated before elements {@link
   * #FIRST} and {@link #SECOND}. A failure follows element {@code FIRST + 500} and, once, the
   * second truncation and its element, so that both are sent again.
   */
  private static final class TruncatedTables implements DynamicRecordGenerator<Long> {
    private final FaultCounter injected;
    private transient DynamicTable events;
    private transient DynamicTable keyed;

    TruncatedTables(FaultCounter injected) {
      this.injected = injected;
    }

    static long keyOf(long i) {
      return i < SECOND ? i % 50 : i % 20;
    }

    @Override
    public void generate(Long element, Output out) throws Exception {
      if (events == null) {
        events = DynamicTable.of("db.events", TestRows.TYPE);
        keyed = DynamicTable.of("db.keyed", KeyedUpdates.TYPE).withPrimaryKey("id");
      }
      long i = element;
      if (i == FIRST || i == SECOND) {
        out.apply(TableChange.truncateTable("db.events"));
        out.apply(TableChange.truncateTable("db.keyed"));
      }
      out.collect(new DynamicRecord(events, TestRows.row(i, BUCKETS)));
      GenericRowData update = GenericRowData.of(keyOf(i), i);
      update.setRowKind(RowKind.UPDATE_AFTER);
      out.collect(new DynamicRecord(keyed, update));
      if ((i == FIRST + 500 && injected.count() == 0) || (i == SECOND && injected.count() == 1)) {
        injected.fire();
        throw new IllegalStateException("Injected failure after element " + i);
      }
    }
  }

  /** Rows of one table, truncated at the source after row 49. */
  private static final class Truncating implements DynamicRecordGenerator<RowData> {
    private transient DynamicTable table;

    @Override
    public void generate(RowData row, Output out) throws Exception {
      if (table == null) {
        table = DynamicTable.of("db.events", TestRows.TYPE);
      }
      out.collect(new DynamicRecord(table, row));
      if (row.getLong(0) == 49) {
        out.apply(TableChange.truncateTable("db.events"));
      }
    }
  }
}
