/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkdelta.core.keys.TableKeyReader;
import io.github.flinkdelta.core.maintenance.CompactionOptions;
import io.github.flinkdelta.core.testing.TestTables;
import io.github.flinkdelta.core.upsert.FileDeletes;
import io.github.flinkdelta.core.upsert.IndexCatchUp;
import io.github.flinkdelta.core.upsert.KeyChanges;
import io.github.flinkdelta.core.upsert.KeyColumns;
import io.github.flinkdelta.core.upsert.PendingWrites;
import io.github.flinkdelta.core.write.DataFile;
import io.github.flinkdelta.core.write.FileIds;
import io.github.flinkdelta.core.write.RowLocation;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A key index follows the table's log ({@link TableKeyReader}, {@link IndexCatchUp}): what other
 * writers did after the index's version is applied to it, reading only the files they changed; the
 * sink's own versions change nothing in it.
 */
class IndexFollowsTheLogTest {

  private static final RowType TYPE =
      RowType.of(
          new LogicalType[] {new BigIntType(false), new VarCharType(true, 20)},
          new String[] {"id", "v"});
  private static final KeyColumns KEY = KeyColumns.of("t", TYPE, List.of("id"));

  @TempDir Path dir;

  @Test
  void rowsAnotherWriterCompactedAreFollowedToTheirNewPlaces() throws Exception {
    String path = dir.resolve("t").toUri().toString();
    try (DeltaTable table = create(path)) {
      DataFile a = write(path, 0, 3, "a");
      DataFile b = write(path, 3, 3, "b");
      TestTables.committed(table.commit("app", 1, List.of(a, b)));
      Map<String, RowLocation> index = indexOf(table);
      long version = table.snapshot().getVersion();

      // Another writer compacts the two files into one (OPTIMIZE).
      try (DeltaTable other = TestTables.open(path)) {
        assertThat(
                other
                    .maintenance()
                    .compact(new CompactionOptions(128L << 20, 2, 1L << 30, 0.2), "other"))
            .matches(result -> result.committed());
      }

      IndexCatchUp.Outcome outcome = follow(table, index, version, new PendingWrites());

      assertThat(outcome.moved()).isEqualTo(6);
      assertThat(index).isEqualTo(indexOf(table));
      assertThat(index.values()).extracting(RowLocation::fileId).doesNotContain(id(a), id(b));
    }
  }

  @Test
  void rowsAnotherWriterDeletedLeaveAndRowsItWroteEnter() throws Exception {
    String path = dir.resolve("t").toUri().toString();
    try (DeltaTable table = create(path)) {
      DataFile a = write(path, 0, 4, "a");
      TestTables.committed(table.commit("app", 1, List.of(a)));
      Map<String, RowLocation> index = indexOf(table);
      long version = table.snapshot().getVersion();

      // Another writer deletes key 0, updates key 1 (its row deleted, a new one written) and
      // inserts key 9.
      DataFile written = write(path, 1, 1, "upd");
      DataFile inserted = write(path, 9, 1, "ins");
      FileDeletes deletes = new FileDeletes();
      deletes.add(id(a), 0);
      deletes.add(id(a), 1);
      TestTables.committed(table.commit("other", 1, List.of(written, inserted), deletes));

      IndexCatchUp.Outcome outcome = follow(table, index, version, new PendingWrites());

      assertThat(index).isEqualTo(indexOf(table));
      assertThat(index).doesNotContainKey("0");
      assertThat(index.get("1")).isEqualTo(new RowLocation(id(written), 0));
      assertThat(index.get("9")).isEqualTo(new RowLocation(id(inserted), 0));
      assertThat(outcome.removed()).isEqualTo(1);
      assertThat(outcome.written()).isEqualTo(2);
    }
  }

  @Test
  void aKeyAnotherWriterWritesAgainReplacesTheCommittedRowWhichTheNextCommitDeletes()
      throws Exception {
    String path = dir.resolve("t").toUri().toString();
    try (DeltaTable table = create(path)) {
      DataFile a = write(path, 0, 2, "a");
      TestTables.committed(table.commit("app", 1, List.of(a)));
      Map<String, RowLocation> index = indexOf(table);
      long version = table.snapshot().getVersion();
      // An INSERT of a key that is live: the table holds key 1 twice.
      DataFile again = write(path, 1, 1, "again");
      TestTables.committed(table.commit("other", 1, List.of(again)));

      FileDeletes next = new FileDeletes();
      IndexCatchUp.Outcome outcome = follow(table, index, version, new PendingWrites(), next);

      assertThat(outcome.duplicates()).isEqualTo(1);
      assertThat(index.get("1")).isEqualTo(new RowLocation(id(again), 0));
      assertThat(next.byFile()).containsOnlyKeys(id(a));
      assertThat(next.byFile().get(id(a)).contains(1)).isTrue();
    }
  }

  @Test
  void aRowOfACheckpointTheTableDoesNotHoldYetWinsOverAnotherWritersRowOfItsKey() throws Exception {
    String path = dir.resolve("t").toUri().toString();
    try (DeltaTable table = create(path)) {
      DataFile a = write(path, 0, 2, "a");
      TestTables.committed(table.commit("app", 1, List.of(a)));
      Map<String, RowLocation> index = indexOf(table);
      long version = table.snapshot().getVersion();
      // The stream wrote key 1 anew in checkpoint 2, handed on but not committed yet.
      DataFile pendingFile = write(path, 1, 1, "stream");
      index.put("1", new RowLocation(id(pendingFile), 0));
      PendingWrites pending = new PendingWrites();
      pending.handedOver(2, List.of(id(pendingFile)), List.of());
      // Meanwhile another writer writes key 1.
      DataFile foreign = write(path, 1, 1, "other");
      TestTables.committed(table.commit("other", 1, List.of(foreign)));

      FileDeletes next = new FileDeletes();
      follow(table, index, version, pending, next);

      assertThat(index.get("1")).isEqualTo(new RowLocation(id(pendingFile), 0));
      assertThat(next.isEmpty()).as("the commit of checkpoint 2 settles key 1").isTrue();

      // Once the table holds checkpoint 2, the file is no longer pending.
      TestTables.committed(table.commit("app", 2, List.of(pendingFile)));
      follow(table, index, version + 1, pending, next);
      assertThat(pending.isPending(id(pendingFile))).isFalse();
      assertThat(pending.committedCheckpoint()).isEqualTo(2);
    }
  }

  @Test
  void theSinksOwnVersionsAreNamedAndNotRead() throws Exception {
    String path = dir.resolve("t").toUri().toString();
    try (DeltaTable table = create(path)) {
      long version = table.snapshot().getVersion();
      DataFile a = write(path, 0, 2, "a");
      TestTables.committed(table.commit("app", 1, List.of(a)));
      TestTables.committed(table.commit("app", 2, List.of(write(path, 2, 1, "b"))));

      KeyChanges changes = table.keyChanges(version, KEY, key -> true, "app");

      assertThat(changes.size()).isZero();
      assertThat(changes.versions())
          .extracting(KeyChanges.Version::checkpoint)
          .containsExactly(1L, 2L);
      assertThat(changes.toVersion()).isEqualTo(table.snapshot().getVersion());
    }
  }

  @Test
  void onlyTheKeysOfTheWritersKeyGroupsAreRead() throws Exception {
    String path = dir.resolve("t").toUri().toString();
    try (DeltaTable table = create(path)) {
      long version = table.snapshot().getVersion();
      TestTables.committed(table.commit("other", 1, List.of(write(path, 0, 10, "a"))));

      KeyChanges changes =
          table.keyChanges(version, KEY, key -> Set.of("2", "7").contains(key), "app");

      List<String> keys = new ArrayList<>();
      changes.versions().forEach(v -> changes.forEach(v, (key, change, row) -> keys.add(key)));
      assertThat(keys).containsExactlyInAnyOrder("2", "7");
    }
  }

  @Test
  void aKeyWithAPartitionColumnIsFollowedUnderColumnMapping() throws Exception {
    String path = dir.resolve("t").toUri().toString();
    RowType type =
        RowType.of(
            new LogicalType[] {new BigIntType(false), new VarCharType(false, 8)},
            new String[] {"id", "region"});
    KeyColumns key = KeyColumns.of("t", type, List.of("id", "region"));
    try (DeltaTable table =
        TestTables.create(
            path,
            type,
            List.of("region"),
            Map.of("delta.enableDeletionVectors", "true", "delta.columnMapping.mode", "name"))) {
      List<RowData> rows = new ArrayList<>();
      List<RowData> rows2 = new ArrayList<>();
      for (long i = 0; i < 6; i++) {
        rows.add(GenericRowData.of(i, StringData.fromString(i % 2 == 0 ? "eu" : "us")));
        rows2.add(GenericRowData.of(i + 6, StringData.fromString(i % 2 == 0 ? "eu" : "us")));
      }
      // Two files of each region, which the other writer's compaction merges.
      TestTables.committed(
          table.commit("app", 1, TestTables.writeFiles(path, type, List.of("region"), rows)));
      TestTables.committed(
          table.commit("app", 2, TestTables.writeFiles(path, type, List.of("region"), rows2)));
      long version = table.snapshot().getVersion();
      try (DeltaTable other = TestTables.open(path)) {
        assertThat(
                other
                    .maintenance()
                    .compact(new CompactionOptions(128L << 20, 2, 1L << 30, 0.2), "other"))
            .matches(result -> result.committed());
      }

      KeyChanges changes = table.keyChanges(version, key, k -> true, "app");

      List<String> keys = new ArrayList<>();
      changes.versions().forEach(v -> changes.forEach(v, (k, change, row) -> keys.add(k)));
      Map<String, RowLocation> index = new HashMap<>();
      table.reload();
      table.scanKeys(key, (k, fileId, position) -> index.put(k, new RowLocation(fileId, position)));
      // Each key removed from its old file and added in its new one, with its partition value.
      assertThat(keys).hasSize(24);
      assertThat(new java.util.HashSet<>(keys)).isEqualTo(index.keySet());
    }
  }

  private static IndexCatchUp.Outcome follow(
      DeltaTable table, Map<String, RowLocation> index, long version, PendingWrites pending) {
    return follow(table, index, version, pending, new FileDeletes());
  }

  private static IndexCatchUp.Outcome follow(
      DeltaTable table,
      Map<String, RowLocation> index,
      long version,
      PendingWrites pending,
      FileDeletes next) {
    KeyChanges changes = table.keyChanges(version, KEY, key -> true, "app");
    return IndexCatchUp.apply(
        changes,
        new IndexCatchUp.Index() {
          @Override
          public RowLocation get(String key) {
            return index.get(key);
          }

          @Override
          public void put(String key, RowLocation location) {
            index.put(key, location);
          }

          @Override
          public void remove(String key) {
            index.remove(key);
          }
        },
        pending,
        table::deletedRows,
        next);
  }

  /** The index a scan of the table builds: every live key at its row. */
  private static Map<String, RowLocation> indexOf(DeltaTable table) {
    table.reload();
    Map<String, RowLocation> index = new HashMap<>();
    table.scanKeys(
        KEY,
        (key, fileId, position) ->
            assertThat(index.put(key, new RowLocation(fileId, position))).isNull());
    return index;
  }

  private static long id(DataFile file) {
    return FileIds.of(file.path());
  }

  private static DeltaTable create(String path) {
    return TestTables.create(path, TYPE, List.of(), Map.of("delta.enableDeletionVectors", "true"));
  }

  private static DataFile write(String path, long from, long count, String prefix)
      throws IOException {
    List<RowData> rows = new ArrayList<>();
    for (long i = from; i < from + count; i++) {
      rows.add(GenericRowData.of(i, StringData.fromString(prefix + i)));
    }
    return TestTables.writeFiles(path, TYPE, List.of(), rows).get(0);
  }
}
