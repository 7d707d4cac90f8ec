/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.dynamic;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.it.support.CatalogReads;
import io.github.flinkdelta.it.support.DeltaLogFiles;
import io.github.flinkdelta.it.support.FaultCounter;
import io.github.flinkdelta.it.support.FlinkCluster;
import io.github.flinkdelta.it.support.SharedSpark;
import io.github.flinkdelta.it.support.TestRows;
import io.github.flinkdelta.it.support.UpsertAssert;
import io.github.flinkdelta.sink.DeltaSink;
import io.github.flinkdelta.sink.dynamic.DynamicRecord;
import io.github.flinkdelta.sink.dynamic.DynamicRecordGenerator;
import io.github.flinkdelta.sink.dynamic.DynamicSinkOptions;
import io.github.flinkdelta.sink.dynamic.DynamicTable;
import io.github.flinkdelta.sink.dynamic.TableChange;
import io.github.flinkdelta.sparktestkit.SparkSql;
import io.github.flinkdelta.testkit.UnityCatalogServer;
import io.github.flinkdelta.testkit.UnityCatalogServerExtension;
import io.github.flinkdelta.uc.Secret;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import io.unitycatalog.client.model.ColumnInfo;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.testutils.junit.SharedObjectsExtension;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tables dropped at the source and applied ({@link DynamicSinkOptions#TABLE_EVENTS} = APPLY): each
 * drop follows the rows before it and precedes the rows after it, which create the table anew in a
 * shape the dropped table could not evolve into (a column narrowed from BIGINT to STRING, a
 * partition column added); through failures right after a drop, read back through Kernel and
 * delta-spark; on path tables and on Unity Catalog managed tables.
 */
class DynamicDropTableITCase {

  @RegisterExtension static final FlinkCluster FLINK = FlinkCluster.create();
  @RegisterExtension final SharedObjectsExtension shared = SharedObjectsExtension.create();
  private final FaultCounter injected = FaultCounter.in(shared);

  private static final int BUCKETS = 5;
  private static final long COUNT = 3_000;
  private static final long FIRST = 1_000;
  private static final long SECOND = 2_000;
  private static final String TOKEN = "uc-test-token";

  @TempDir Path dir;

  @RegisterExtension
  final UnityCatalogServerExtension catalog =
      new UnityCatalogServerExtension(uc -> uc.token(TOKEN));

  @Test
  void droppedTablesLoseEveryRowBeforeTheDropAndAreCreatedAnewByTheRowsAfterThroughFailures()
      throws Exception {
    String events = dir.resolve("db/events").toUri().toString();
    String keyed = dir.resolve("db/keyed").toUri().toString();
    long last = COUNT - 2;
    TableEventJobs.run(
        FLINK,
        shared,
        COUNT,
        DeltaSink.dynamic(new DroppedTables(injected)).tableRoot(dir.toUri().toString()),
        () ->
            rowsOf(events).stream().anyMatch(r -> (long) r.get(0) == last)
                && rowsOf(keyed).contains(DroppedTables.keyedRow(last)));
    assertThat(injected.count()).isEqualTo(2);

    assertThat(DeltaTableReader.readAll(events)).containsExactlyInAnyOrderElementsOf(keptEvents());
    UpsertAssert.assertExact(keyed, latestKeyed());
    // The log is the new table's alone: its first version creates it partitioned, and no version
    // holds a truncation, which would mean the old table had been kept.
    JsonNode created = DeltaLogFiles.actions(events, 0, "metaData").get(0);
    assertThat(created.get("partitionColumns").toString()).isEqualTo("[\"bucket\"]");
    for (String table : List.of(events, keyed)) {
      for (long version : DeltaLogFiles.versions(table)) {
        assertThat(DeltaLogFiles.actions(table, version, "txn"))
            .noneMatch(txn -> txn.get("appId").asText().endsWith("/truncates"));
      }
    }
    SparkSql spark = SharedSpark.get();
    assertThat(spark.query("SELECT id, bucket, payload FROM delta.`" + events + "`"))
        .containsExactlyInAnyOrderElementsOf(strings(keptEvents()));
    assertThat(spark.query("SELECT id, v FROM delta.`" + keyed + "`"))
        .containsExactlyInAnyOrderElementsOf(strings(latestKeyed().values()));
  }

  /**
   * The same drops of Unity Catalog managed tables (uc-testkit over HTTP): each drop deletes the
   * table from the catalog, and the rows after it register a new managed table of the new shape,
   * whose latest version holds exactly the rows after the second drop.
   */
  @Test
  void managedTablesAreDroppedFromTheCatalogAndCreatedAnewInOrderWithTheirRows() throws Exception {
    UnityCatalogServer server = catalog.server();
    UnityCatalogConnection connection = new UnityCatalogConnection(server.uri(), Secret.of(TOKEN));
    long last = COUNT - 2;
    TableEventJobs.run(
        FLINK,
        shared,
        COUNT,
        DeltaSink.dynamic(new DroppedTables(injected))
            .unityCatalog(connection)
            .defaultNamespace("main"),
        () ->
            catalogRowsOf(connection, "main.db.events").stream()
                    .anyMatch(r -> (long) r.get(0) == last)
                && catalogRowsOf(connection, "main.db.keyed")
                    .contains(DroppedTables.keyedRow(last)));
    assertThat(injected.count()).isEqualTo(2);

    CatalogReads.Read events = CatalogReads.read(connection, "main.db.events");
    assertThat(events.rows()).containsExactlyInAnyOrderElementsOf(keptEvents());
    CatalogReads.Read keyed = CatalogReads.read(connection, "main.db.keyed");
    assertThat(keyed.rows()).containsExactlyInAnyOrderElementsOf(latestKeyed().values());
    assertThat(server.latestVersion("main.db.events")).isEqualTo(events.version());
    assertThat(server.latestVersion("main.db.keyed")).isEqualTo(keyed.version());
    List<ColumnInfo> columns = CatalogReads.columns(connection, "main.db.keyed");
    assertThat(columns)
        .filteredOn(column -> column.getName().equals("v"))
        .singleElement()
        .satisfies(v -> assertThat(v.getTypeName().getValue()).isEqualTo("STRING"));
  }

  /** The rows of {@code db.events} after the second drop. */
  private static List<List<Object>> keptEvents() {
    return TestRows.expected(COUNT, BUCKETS).subList((int) SECOND, (int) COUNT);
  }

  /** The last value of each key of {@code db.keyed} written after the second drop. */
  private static Map<Long, List<Object>> latestKeyed() {
    Map<Long, List<Object>> latest = new TreeMap<>();
    for (long i = SECOND; i < COUNT; i++) {
      latest.put(DroppedTables.keyOf(i), DroppedTables.keyedRow(i));
    }
    return latest;
  }

  private static List<List<String>> strings(Collection<List<Object>> rows) {
    return rows.stream().map(row -> row.stream().map(String::valueOf).toList()).toList();
  }

  /** The rows of the catalog's table; none while the catalog does not know it. */
  private static List<List<Object>> catalogRowsOf(UnityCatalogConnection connection, String name) {
    try {
      return CatalogReads.rows(connection, name);
    } catch (RuntimeException missingOrDroppedMeanwhile) {
      return List.of();
    }
  }

  /** The rows of {@code table}; none before its first version. */
  private static List<List<Object>> rowsOf(String table) {
    Path first = Path.of(URI.create(table)).resolve("_delta_log/" + "0".repeat(20) + ".json");
    try {
      return Files.exists(first) ? DeltaTableReader.readAll(table) : List.of();
    } catch (RuntimeException dropMeanwhile) {
      return List.of();
    }
  }

  /**
   * Element {@code i} is a row of the appending table {@code db.events} and an update of key {@code
   * keyOf(i)} in {@code db.keyed}; both tables are dropped before elements {@link #FIRST} and
   * {@link #SECOND}. From {@code SECOND} on, {@code db.events} is partitioned by {@code bucket} and
   * {@code db.keyed} holds {@code v} as a string. A failure follows element {@code FIRST + 500}
   * and, once, the second drop and its element, so that both are sent again.
   */
  private static final class DroppedTables implements DynamicRecordGenerator<Long> {

    static final RowType KEYED =
        RowType.of(
            new LogicalType[] {new BigIntType(false), new BigIntType()}, new String[] {"id", "v"});
    static final RowType KEYED_AFTER =
        RowType.of(
            new LogicalType[] {new BigIntType(false), new VarCharType(VarCharType.MAX_LENGTH)},
            new String[] {"id", "v"});

    private final FaultCounter injected;
    private transient DynamicTable events;
    private transient DynamicTable keyed;
    private transient DynamicTable eventsAfter;
    private transient DynamicTable keyedAfter;

    DroppedTables(FaultCounter injected) {
      this.injected = injected;
    }

    static long keyOf(long i) {
      return i < SECOND ? i % 50 : i % 20;
    }

    /** The row element {@code i} leaves in {@code db.keyed} after the second drop. */
    static List<Object> keyedRow(long i) {
      return List.of(keyOf(i), "v-" + i);
    }

    @Override
    public void generate(Long element, Output out) throws Exception {
      if (events == null) {
        events = DynamicTable.of("db.events", TestRows.TYPE);
        keyed = DynamicTable.of("db.keyed", KEYED).withPrimaryKey("id");
        eventsAfter = events.withPartitionColumns("bucket");
        keyedAfter = DynamicTable.of("db.keyed", KEYED_AFTER).withPrimaryKey("id");
      }
      long i = element;
      if (i == FIRST || i == SECOND) {
        out.apply(TableChange.dropTable("db.events"));
        out.apply(TableChange.dropTable("db.keyed"));
      }
      boolean after = i >= SECOND;
      out.collect(new DynamicRecord(after ? eventsAfter : events, TestRows.row(i, BUCKETS)));
      GenericRowData update =
          after
              ? GenericRowData.of(keyOf(i), StringData.fromString("v-" + i))
              : GenericRowData.of(keyOf(i), i);
      update.setRowKind(RowKind.UPDATE_AFTER);
      out.collect(new DynamicRecord(after ? keyedAfter : keyed, update));
      if ((i == FIRST + 500 && injected.count() == 0) || (i == SECOND && injected.count() == 1)) {
        injected.fire();
        throw new IllegalStateException("Injected failure after element " + i);
      }
    }
  }
}
