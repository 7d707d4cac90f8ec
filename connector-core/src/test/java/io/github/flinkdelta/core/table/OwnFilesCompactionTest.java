/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.table;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.flinkdelta.core.commit.CommitOutcome;
import io.github.flinkdelta.core.maintenance.CompactionOptions;
import io.github.flinkdelta.core.maintenance.PreparedCompaction;
import io.github.flinkdelta.core.testing.CommitFaults;
import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.core.testing.FaultyPathTable;
import io.github.flinkdelta.core.testing.TestTables;
import io.github.flinkdelta.core.upsert.FileDeletes;
import io.github.flinkdelta.core.upsert.KeyColumns;
import io.github.flinkdelta.core.upsert.MovedRows;
import io.github.flinkdelta.core.upsert.RewriteLayout;
import io.github.flinkdelta.core.write.DataFile;
import io.github.flinkdelta.core.write.FileIds;
import io.github.flinkdelta.core.write.FileWriteOptions;
import io.github.flinkdelta.core.write.RowLocation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An upsert writer's compaction of its own files: the rewrite reports every live row's key with its
 * old and new place, from which the writer makes the rewrite's {@link RewriteLayout}. The commit of
 * the checkpoint that hands it on lands in two versions: the checkpoint's changes (new files, rows
 * deleted in the rewritten files) with {@code dataChange = true}, then the rewrite alone with
 * {@code dataChange = false}, removing exactly the rows it adds. Every row deleted in a rewritten
 * file after the rewrite read it, by the sink or by another writer, is deleted in the new files.
 */
class OwnFilesCompactionTest {

  private static final RowType TYPE =
      RowType.of(
          new LogicalType[] {new BigIntType(false), new VarCharType(true, 20)},
          new String[] {"id", "v"});
  private static final KeyColumns KEY = KeyColumns.of("t", TYPE, List.of("id"));
  private static final CompactionOptions OPTIONS =
      new CompactionOptions(128L << 20, 2, 1L << 30, 0.2);
  private static final FileWriteOptions WRITE_OPTIONS =
      FileWriteOptions.from(new Configuration()).withTargetFileSize(OPTIONS.targetFileSizeBytes());
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  @Test
  void aWritersRewriteMovesEveryLiveRowAndCommitsAfterItsCheckpointWithoutChangingARow()
      throws Exception {
    String path = dir.resolve("t").toUri().toString();
    try (DeltaTable table = create(path)) {
      table.settleStaleDeletesBy(KEY);
      DataFile a = write(path, 0, 5, "a");
      DataFile b = write(path, 5, 5, "b");
      DataFile other = write(path, 10, 5, "o");
      TestTables.committed(table.commit("app", 1, List.of(a, b, other)));
      // Key 1 was deleted in an earlier checkpoint.
      TestTables.committed(table.commit("app", 2, List.of(), deletes(a, 1)));

      Map<Long, RowLocation> movedTo = new HashMap<>();
      MovedRows moved = new MovedRows();
      PreparedCompaction prepared =
          table
              .maintenance()
              .prepareCompactionOfOwnFiles(
                  Long.MAX_VALUE,
                  OPTIONS,
                  WRITE_OPTIONS,
                  file -> !file.equals(other.path()),
                  "part-00000-compacted",
                  KEY,
                  moved)
              .orElseThrow();
      long[] fromPositions = new long[10]; // key 1 was not moved
      moved.forEach(
          (key, fromFile, fromPosition, to) -> {
            long id = Long.parseLong(key);
            movedTo.put(id, to);
            long expectedFile = FileIds.of(id < 5 ? a.path() : b.path());
            assertThat(fromFile).as("file of key %d", id).isEqualTo(expectedFile);
            fromPositions[(int) id] = fromPosition;
          });
      assertThat(movedTo).containsOnlyKeys(0L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L);
      assertThat(fromPositions).containsExactly(0, 0, 2, 3, 4, 0, 1, 2, 3, 4);
      assertThat(prepared.removedIds())
          .containsExactlyInAnyOrder(FileIds.of(a.path()), FileIds.of(b.path()));
      DataFile output = prepared.writtenFiles().toList().get(0);
      assertThat(output.path()).startsWith("part-00000-compacted-");
      assertThat(movedTo.values())
          .extracting(RowLocation::fileId, RowLocation::position)
          .containsExactlyInAnyOrder(positions(FileIds.of(output.path()), 9).toArray(new Tuple[0]));

      // The checkpoint that hands the rewrite on updated key 3 before the writer moved its index:
      // its delete points at the rewritten file.
      DataFile update = write(path, 3, 1, "new");
      FileDeletes deletes = deletes(a, 3);
      deletes.setIndexVersion(2);
      deletes.addRewrite(layout(prepared, moved));
      TestTables.committed(table.commit("app", 3, List.of(update, output), deletes));

      assertThat(values(path))
          .containsExactlyInAnyOrderEntriesOf(
              Map.ofEntries(
                  Map.entry(0L, "a0"),
                  Map.entry(2L, "a2"),
                  Map.entry(3L, "new3"),
                  Map.entry(4L, "a4"),
                  Map.entry(5L, "b5"),
                  Map.entry(6L, "b6"),
                  Map.entry(7L, "b7"),
                  Map.entry(8L, "b8"),
                  Map.entry(9L, "b9"),
                  Map.entry(10L, "o10"),
                  Map.entry(11L, "o11"),
                  Map.entry(12L, "o12"),
                  Map.entry(13L, "o13"),
                  Map.entry(14L, "o14")));
      assertThat(DeltaTableReader.version(path)).isEqualTo(4);
      // The checkpoint's version: the update and the delete of key 3's row in a, as data changes.
      List<JsonNode> checkpoint = actions(path, 3);
      assertThat(checkpoint.stream().flatMap(OwnFilesCompactionTest::fileActions))
          .extracting(action -> action.get("dataChange").asBoolean())
          .containsOnly(true);
      assertThat(of(checkpoint, "add"))
          .extracting(add -> add.get("path").asText())
          .containsExactlyInAnyOrder(update.path(), a.path());
      // The rewrite's version: a and b out, the output in, no row changed.
      List<JsonNode> rewrite = actions(path, 4);
      assertThat(of(rewrite, "remove"))
          .extracting(r -> r.get("path").asText(), r -> r.get("dataChange").asBoolean())
          .containsExactlyInAnyOrder(Tuple.tuple(a.path(), false), Tuple.tuple(b.path(), false));
      JsonNode compacted = of(rewrite, "add").get(0);
      assertThat(of(rewrite, "add")).hasSize(1);
      assertThat(compacted.get("path").asText()).isEqualTo(output.path());
      assertThat(compacted.get("dataChange").asBoolean()).isFalse();
      assertThat(compacted.get("deletionVector").get("cardinality").asLong()).isEqualTo(1);
      assertThat(liveRows(of(rewrite, "add"))).isEqualTo(liveRows(of(rewrite, "remove")));
      assertThat(transaction(rewrite)).isEqualTo("app/compactions:3");
    }
  }

  @Test
  void aRowAnotherWriterDeletedAfterTheRewriteReadItStaysDeleted() throws Exception {
    String path = dir.resolve("t").toUri().toString();
    try (DeltaTable table = create(path)) {
      table.settleStaleDeletesBy(KEY);
      DataFile a = write(path, 0, 5, "a");
      DataFile b = write(path, 5, 5, "b");
      TestTables.committed(table.commit("app", 1, List.of(a, b)));
      Rewrite rewrite = rewriteAll(table);

      // Another writer deletes key 6 (a DELETE with a deletion vector) after the rewrite read b.
      TestTables.committed(table.commit("other", 1, List.of(), deletes(b, 1)));

      FileDeletes deletes = new FileDeletes();
      deletes.setIndexVersion(1);
      deletes.addRewrite(rewrite.layout());
      TestTables.committed(table.commit("app", 2, List.of(rewrite.output()), deletes));

      assertThat(values(path)).doesNotContainKey(6L).hasSize(9);
      long last = DeltaTableReader.version(path);
      assertThat(liveRows(of(actions(path, last), "add")))
          .isEqualTo(liveRows(of(actions(path, last), "remove")));
    }
  }

  @Test
  void aRewriteWhoseFileAnotherWriterMovedLandsWithoutThatFilesRows() throws Exception {
    String path = dir.resolve("t").toUri().toString();
    try (DeltaTable table = create(path)) {
      table.settleStaleDeletesBy(KEY);
      DataFile a = write(path, 0, 5, "a");
      DataFile b = write(path, 5, 5, "b");
      TestTables.committed(table.commit("app", 1, List.of(a, b)));
      Rewrite rewrite = rewriteAll(table);
      long indexVersion = DeltaTableReader.version(path);

      // Another writer moves file a's rows first (a compaction of its own).
      DataFile elsewhere = write(path, 0, 5, "a");
      TestTables.committed(table.commit("other", 1, List.of(elsewhere)));
      long removedAt = removeFromLog(path, a);

      // The checkpoint updates key 2 (whose delete points into a, now gone) and deletes key 7.
      DataFile update = write(path, 2, 1, "new");
      FileDeletes deletes = deletes(a, 2);
      deletes.add(FileIds.of(b.path()), 2);
      deletes.addDeletedKey("7");
      deletes.setIndexVersion(indexVersion);
      deletes.addRewrite(rewrite.layout());
      CommitOutcome outcome = table.commit("app", 2, List.of(update, rewrite.output()), deletes);

      assertThat(((CommitOutcome.Committed) outcome).staleRows())
          .as("the stale delete of key 2's row, whose moved row is deleted by key instead")
          .isEqualTo(1);
      assertThat(values(path))
          .containsExactlyInAnyOrderEntriesOf(
              Map.ofEntries(
                  Map.entry(0L, "a0"),
                  Map.entry(1L, "a1"),
                  Map.entry(2L, "new2"),
                  Map.entry(3L, "a3"),
                  Map.entry(4L, "a4"),
                  Map.entry(5L, "b5"),
                  Map.entry(6L, "b6"),
                  Map.entry(8L, "b8"),
                  Map.entry(9L, "b9")));
      List<JsonNode> compaction = actions(path, removedAt + 2);
      assertThat(of(compaction, "remove"))
          .extracting(r -> r.get("path").asText())
          .containsExactly(b.path());
      JsonNode output = of(compaction, "add").get(0);
      assertThat(output.get("deletionVector").get("cardinality").asLong())
          .as("a's five rows and key 7's")
          .isEqualTo(6);
      assertThat(liveRows(of(compaction, "add"))).isEqualTo(liveRows(of(compaction, "remove")));
    }
  }

  @Test
  void aRewriteOfAFileTheSinkSinceEmptiedLandsWithTheOtherFiles() throws Exception {
    String path = dir.resolve("t").toUri().toString();
    try (DeltaTable table = create(path)) {
      table.settleStaleDeletesBy(KEY);
      DataFile a = write(path, 0, 5, "a");
      DataFile b = write(path, 5, 5, "b");
      TestTables.committed(table.commit("app", 1, List.of(a, b)));
      Rewrite rewrite = rewriteAll(table);

      // Before the rewrite is handed on, the sink deletes every row of file a: it leaves the table.
      TestTables.committed(table.commit("app", 2, List.of(), deletes(a, 0, 1, 2, 3, 4)));
      assertThat(of(actions(path, 2), "add")).isEmpty();

      FileDeletes deletes = new FileDeletes();
      deletes.setIndexVersion(2);
      deletes.addRewrite(rewrite.layout());
      CommitOutcome outcome = table.commit("app", 3, List.of(rewrite.output()), deletes);

      assertThat(((CommitOutcome.Committed) outcome).staleRows()).isZero();
      assertThat(values(path))
          .containsExactlyInAnyOrderEntriesOf(
              Map.of(5L, "b5", 6L, "b6", 7L, "b7", 8L, "b8", 9L, "b9"));
      List<JsonNode> actions = actions(path, 3);
      assertThat(of(actions, "remove"))
          .extracting(r -> r.get("path").asText(), r -> r.get("dataChange").asBoolean())
          .containsExactly(Tuple.tuple(b.path(), false));
      assertThat(of(actions, "add"))
          .singleElement()
          .satisfies(
              add -> {
                assertThat(add.get("path").asText()).isEqualTo(rewrite.output().path());
                assertThat(add.get("deletionVector").get("cardinality").asLong()).isEqualTo(5);
              });
    }
  }

  @Test
  void aReplayAfterTheCheckpointsVersionLandedCommitsTheRewriteOnce() throws Exception {
    String path = dir.resolve("t").toUri().toString();
    CommitFaults faults = new CommitFaults();
    TestTables.create(path, TYPE, List.of(), Map.of("delta.enableDeletionVectors", "true")).close();
    try (DeltaTable table =
        DeltaTable.open(
            TableRequest.of(
                new FaultyPathTable(path, faults), new org.apache.hadoop.conf.Configuration()))) {
      table.settleStaleDeletesBy(KEY);
      DataFile a = write(path, 0, 5, "a");
      DataFile b = write(path, 5, 5, "b");
      TestTables.committed(table.commit("app", 1, List.of(a, b)));
      Rewrite rewrite = rewriteAll(table);
      DataFile update = write(path, 0, 1, "new");
      FileDeletes deletes = deletes(a, 0);
      deletes.setIndexVersion(1);
      deletes.addRewrite(rewrite.layout());

      faults.arm(CommitFaults.Fault.NONE, CommitFaults.Fault.FAIL_FOR_GOOD);
      CommitOutcome failed = table.commit("app", 2, List.of(update, rewrite.output()), deletes);
      assertThat(failed).isInstanceOf(CommitOutcome.Failed.class);
      assertThat(faults.fired()).isEqualTo(1);
      assertThat(values(path)).containsEntry(0L, "new0").hasSize(10);

      CommitOutcome replayed = table.commit("app", 2, List.of(update, rewrite.output()), deletes);
      assertThat(replayed).isInstanceOf(CommitOutcome.AlreadyCommitted.class);
      assertThat(DeltaTableReader.version(path)).isEqualTo(3);
      assertThat(of(actions(path, 3), "add"))
          .extracting(add -> add.get("path").asText())
          .containsExactly(rewrite.output().path());
      assertThat(values(path)).containsEntry(0L, "new0").hasSize(10);
      assertThat(table.commit("app", 2, List.of(update, rewrite.output()), deletes))
          .isInstanceOf(CommitOutcome.AlreadyCommitted.class);
      assertThat(DeltaTableReader.version(path)).isEqualTo(3);
    }
  }

  /** A writer's rewrite of every file, its one output file, and its layout. */
  private record Rewrite(PreparedCompaction prepared, DataFile output, RewriteLayout layout) {}

  private static Rewrite rewriteAll(DeltaTable table) {
    MovedRows moved = new MovedRows();
    PreparedCompaction prepared =
        table
            .maintenance()
            .prepareCompactionOfOwnFiles(
                Long.MAX_VALUE,
                OPTIONS,
                WRITE_OPTIONS,
                file -> true,
                "part-00000-compacted",
                KEY,
                moved)
            .orElseThrow();
    return new Rewrite(prepared, prepared.writtenFiles().toList().get(0), layout(prepared, moved));
  }

  private static RewriteLayout layout(PreparedCompaction prepared, MovedRows moved) {
    RewriteLayout.Builder layout = new RewriteLayout.Builder(prepared.readVectors());
    moved.forEach(layout);
    return layout.build(prepared.plannedVersion(), prepared.removedIds());
  }

  /** The rows the file actions name that no deletion vector deletes. */
  private static long liveRows(List<JsonNode> fileActions) throws IOException {
    long live = 0;
    for (JsonNode action : fileActions) {
      long records = JSON.readTree(action.get("stats").asText()).get("numRecords").asLong();
      JsonNode vector = action.get("deletionVector");
      live +=
          records - (vector == null || vector.isNull() ? 0 : vector.get("cardinality").asLong());
    }
    return live;
  }

  private static java.util.stream.Stream<JsonNode> fileActions(JsonNode action) {
    return java.util.stream.Stream.of("add", "remove").filter(action::has).map(action::get);
  }

  private static String transaction(List<JsonNode> actions) {
    JsonNode txn = of(actions, "txn").get(0);
    return txn.get("appId").asText() + ":" + txn.get("version").asLong();
  }

  private static List<Tuple> positions(long fileId, int count) {
    List<Tuple> all = new ArrayList<>();
    for (long i = 0; i < count; i++) {
      all.add(Tuple.tuple(fileId, i));
    }
    return all;
  }

  private static Map<Long, String> values(String path) {
    Map<Long, String> values = new HashMap<>();
    for (List<Object> row : DeltaTableReader.readAll(path)) {
      assertThat(values.put((Long) row.get(0), String.valueOf(row.get(1))))
          .as("key %s twice", row.get(0))
          .isNull();
    }
    return values;
  }

  /** Commits a version that removes {@code file}, as another engine's compaction would. */
  private static long removeFromLog(String path, DataFile file) throws IOException {
    long version = DeltaTableReader.version(path) + 1;
    String remove =
        JSON.createObjectNode()
            .set(
                "remove",
                JSON.createObjectNode()
                    .put("path", file.path())
                    .put("deletionTimestamp", System.currentTimeMillis())
                    .put("dataChange", false))
            .toString();
    Files.writeString(logFile(path, version), remove + "\n", StandardOpenOption.CREATE_NEW);
    return version;
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

  private static FileDeletes deletes(DataFile file, long... positions) {
    FileDeletes deletes = new FileDeletes();
    for (long position : positions) {
      deletes.add(FileIds.of(file.path()), position);
    }
    return deletes;
  }

  private static Path logFile(String path, long version) {
    return Path.of(java.net.URI.create(path))
        .resolve("_delta_log")
        .resolve(String.format("%020d.json", version));
  }

  private static List<JsonNode> actions(String path, long version) throws IOException {
    List<JsonNode> actions = new ArrayList<>();
    for (String line : Files.readAllLines(logFile(path, version))) {
      actions.add(JSON.readTree(line));
    }
    return actions;
  }

  private static List<JsonNode> of(List<JsonNode> actions, String kind) {
    return actions.stream().filter(a -> a.has(kind)).map(a -> a.get(kind)).toList();
  }
}
