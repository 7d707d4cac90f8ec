/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.dynamic;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.it.support.DeltaLogFiles;
import io.github.flinkdelta.it.support.FaultCounter;
import io.github.flinkdelta.it.support.FlinkCluster;
import io.github.flinkdelta.it.support.SharedSpark;
import io.github.flinkdelta.it.support.UpsertAssert;
import io.github.flinkdelta.sink.DeltaSink;
import io.github.flinkdelta.sink.dynamic.DynamicSinkOptions;
import io.github.flinkdelta.sparktestkit.SparkSql;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import org.apache.flink.testutils.junit.SharedObjectsExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tables dropped at the source and applied ({@link DynamicSinkOptions#TABLE_EVENTS} = APPLY): each
 * drop follows the rows before it and precedes the rows after it, which create the table anew in a
 * shape the dropped table could not evolve into (a column narrowed from BIGINT to STRING, a
 * partition column added); through failures right after a drop, read back through Kernel and
 * delta-spark. The same on Unity Catalog managed tables is in the catalog contract ({@code
 * UnityCatalogContract}), which runs against the test server and real catalogs alike.
 */
class DynamicDropTableITCase {

  @RegisterExtension static final FlinkCluster FLINK = FlinkCluster.create();
  @RegisterExtension final SharedObjectsExtension shared = SharedObjectsExtension.create();
  private final FaultCounter injected = FaultCounter.in(shared);

  private static final long COUNT = 3_000;

  @TempDir Path dir;

  @Test
  void droppedTablesLoseEveryRowBeforeTheDropAndAreCreatedAnewByTheRowsAfterThroughFailures()
      throws Exception {
    String events = dir.resolve("db/events").toUri().toString();
    String keyed = dir.resolve("db/keyed").toUri().toString();
    DroppedTables tables = new DroppedTables(injected, "db.", 1_000, 2_000, COUNT);
    long last = COUNT - 2;
    TableEventJobs.run(
        FLINK,
        shared,
        COUNT,
        DeltaSink.dynamic(tables).tableRoot(dir.toUri().toString()),
        () ->
            rowsOf(events).stream().anyMatch(r -> (long) r.get(0) == last)
                && rowsOf(keyed).contains(tables.keyedRow(last)));
    assertThat(injected.count()).isEqualTo(2);

    assertThat(DeltaTableReader.readAll(events))
        .containsExactlyInAnyOrderElementsOf(tables.keptEvents());
    UpsertAssert.assertExact(keyed, tables.latestKeyed());
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
        .containsExactlyInAnyOrderElementsOf(strings(tables.keptEvents()));
    assertThat(spark.query("SELECT id, v FROM delta.`" + keyed + "`"))
        .containsExactlyInAnyOrderElementsOf(strings(tables.latestKeyed().values()));
  }

  private static List<List<String>> strings(Collection<List<Object>> rows) {
    return rows.stream().map(row -> row.stream().map(String::valueOf).toList()).toList();
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
}
