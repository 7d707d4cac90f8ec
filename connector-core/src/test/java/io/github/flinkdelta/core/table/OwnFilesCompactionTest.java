package io.github.flinkdelta.core.table;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.flinkdelta.core.maintenance.CompactionOptions;
import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.core.testing.TestTables;
import io.github.flinkdelta.core.upsert.FileDeletes;
import io.github.flinkdelta.core.upsert.KeyColumns;
import io.github.flinkdelta.core.upsert.MovedRows;
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
 * old and new place, and the checkpoint's commit removes the rewritten files and adds the new ones
 * with {@code dataChange = false}, with the rows that changed since the rewrite read them deleted
 * in the new files. When another writer removed a rewritten file first, the commit drops the
 * rewrite and settles the checkpoint's deletes by key.
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
  void aWritersRewriteMovesEveryLiveRowAndCommitsWithItsCheckpoint() throws Exception {
    String path = dir.resolve("t").toUri().toString();
    try (DeltaTable table = create(path)) {
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
              .prepareCompactionOfOwnFiles(
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

      // The next checkpoint updates key 3 after the rewrite read it: the writer deletes the old
      // row, which the rewrite moved, in the new file.
      DataFile update = write(path, 3, 1, "new");
      FileDeletes deletes = deletes(a, 3);
      deletes.add(movedTo.get(3L).fileId(), movedTo.get(3L).position());
      deletes.addRewrite(prepared.removedIds(), List.of(FileIds.of(output.path())));
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
      List<JsonNode> actions = actions(path, 3);
      assertThat(of(actions, "remove"))
          .extracting(r -> r.get("path").asText(), r -> r.get("dataChange").asBoolean())
          .containsExactlyInAnyOrder(Tuple.tuple(a.path(), false), Tuple.tuple(b.path(), false));
      JsonNode compacted =
          of(actions, "add").stream()
              .filter(add -> add.get("path").asText().equals(output.path()))
              .findFirst()
              .orElseThrow();
      assertThat(compacted.get("dataChange").asBoolean()).isFalse();
      assertThat(compacted.get("deletionVector").get("cardinality").asLong()).isEqualTo(1);
      JsonNode added =
          of(actions, "add").stream()
              .filter(add -> add.get("path").asText().equals(update.path()))
              .findFirst()
              .orElseThrow();
      assertThat(added.get("dataChange").asBoolean()).isTrue();
    }
  }

  @Test
  void aRewriteWhoseFileAnotherWriterRemovedIsDroppedAndItsDeletesSettledByKey() throws Exception {
    String path = dir.resolve("t").toUri().toString();
    try (DeltaTable table = create(path)) {
      table.settleStaleDeletesBy(KEY);
      DataFile a = write(path, 0, 5, "a");
      DataFile b = write(path, 5, 5, "b");
      TestTables.committed(table.commit("app", 1, List.of(a, b)));
      Rewrite rewrite = rewriteAll(table);
      PreparedCompaction prepared = rewrite.prepared();
      DataFile output = rewrite.output();
      Map<Long, RowLocation> movedTo = rewrite.movedTo();

      // Another writer moves file a's rows first.
      DataFile elsewhere = write(path, 0, 5, "a");
      TestTables.committed(table.commit("other", 1, List.of(elsewhere)));
      long removedAt = removeFromLog(path, a);

      // The checkpoint updates key 2 and deletes key 7, both rows the rewrite moved.
      DataFile update = write(path, 2, 1, "new");
      FileDeletes deletes = deletes(a, 2);
      deletes.add(FileIds.of(b.path()), 2);
      deletes.addDeletedKey("7");
      deletes.add(movedTo.get(2L).fileId(), movedTo.get(2L).position());
      deletes.add(movedTo.get(7L).fileId(), movedTo.get(7L).position());
      deletes.addRewrite(prepared.removedIds(), List.of(FileIds.of(output.path())));
      CommitOutcome outcome = table.commit("app", 2, List.of(update, output), deletes);

      assertThat(((CommitOutcome.Committed) outcome).staleRows())
          .as("rows whose index entries the dropped rewrite moved")
          .isPositive();
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
      List<JsonNode> actions = actions(path, removedAt + 1);
      assertThat(of(actions, "add"))
          .extracting(add -> add.get("path").asText())
          .doesNotContain(output.path());
      assertThat(of(actions, "remove"))
          .extracting(remove -> remove.get("dataChange").asBoolean())
          .as("no file is removed as compacted")
          .containsOnly(true);
    }
  }

  @Test
  void aRewriteLeavingOutAFileThisSinkSinceEmptiedLandsWithoutSettling() throws Exception {
    String path = dir.resolve("t").toUri().toString();
    try (DeltaTable table = create(path)) {
      table.settleStaleDeletesBy(KEY);
      DataFile a = write(path, 0, 5, "a");
      DataFile b = write(path, 5, 5, "b");
      TestTables.committed(table.commit("app", 1, List.of(a, b)));
      Rewrite rewrite = rewriteAll(table);
      PreparedCompaction prepared = rewrite.prepared();
      DataFile output = rewrite.output();
      Map<Long, RowLocation> movedTo = rewrite.movedTo();

      // Before the rewrite is handed on, the sink deletes every row of file a: it leaves the table.
      TestTables.committed(table.commit("app", 2, List.of(), deletes(a, 0, 1, 2, 3, 4)));
      assertThat(of(actions(path, 2), "add")).isEmpty();

      // The writer finds none of a's keys where the rewrite read them: their moved rows are dead,
      // and file a, gone with its last row, is left out of the rewrite's inputs.
      FileDeletes deletes = new FileDeletes();
      for (long key = 0; key < 5; key++) {
        deletes.add(movedTo.get(key).fileId(), movedTo.get(key).position());
      }
      deletes.addRewrite(List.of(FileIds.of(b.path())), List.of(FileIds.of(output.path())));
      CommitOutcome outcome = table.commit("app", 3, List.of(output), deletes);

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
                assertThat(add.get("path").asText()).isEqualTo(output.path());
                assertThat(add.get("deletionVector").get("cardinality").asLong()).isEqualTo(5);
              });
    }
  }

  /** A writer's rewrite of every file, its one output file, and where it moved each key. */
  private record Rewrite(
      PreparedCompaction prepared, DataFile output, Map<Long, RowLocation> movedTo) {}

  private static Rewrite rewriteAll(DeltaTable table) throws IOException {
    MovedRows moved = new MovedRows();
    PreparedCompaction prepared =
        table
            .prepareCompactionOfOwnFiles(
                OPTIONS, WRITE_OPTIONS, file -> true, "part-00000-compacted", KEY, moved)
            .orElseThrow();
    Map<Long, RowLocation> movedTo = new HashMap<>();
    moved.forEach((key, fromFile, fromPosition, to) -> movedTo.put(Long.parseLong(key), to));
    return new Rewrite(prepared, prepared.writtenFiles().toList().get(0), movedTo);
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
