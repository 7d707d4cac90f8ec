/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.table;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.flinkdelta.core.commit.CommitOutcome;
import io.github.flinkdelta.core.commit.RewrittenFileException;
import io.github.flinkdelta.core.schema.SchemaChangedException;
import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.core.testing.TestTables;
import io.github.flinkdelta.core.upsert.FileDeletes;
import io.github.flinkdelta.core.write.DataFile;
import io.github.flinkdelta.core.write.FileIds;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Commits with deletes: each touched file is removed and re-added with the union of its vector and
 * the new deletes, as the protocol describes (same path, statistics with {@code tightBounds} false,
 * row-tracking fields kept); deletes in a file of the same commit go into its first add; a replayed
 * transaction writes nothing; and Kernel's reader applies the vectors.
 */
class UpsertCommitTest {

  private static final RowType TYPE =
      RowType.of(new LogicalType[] {new BigIntType(false)}, new String[] {"id"});
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final io.github.flinkdelta.core.upsert.KeyColumns KEY =
      io.github.flinkdelta.core.upsert.KeyColumns.of("t", TYPE, List.of("id"));

  @TempDir Path dir;

  @Test
  void aTouchedFileIsRemovedAndReAddedWithTheUnionOfItsVectors() throws Exception {
    String path = dir.resolve("t").toUri().toString();
    try (DeltaTable table = create(path, Map.of())) {
      DataFile file = writeRows(path, 0, 10).get(0);
      TestTables.committed(table.commit("app", 1, List.of(file)));

      TestTables.committed(table.commit("app", 2, List.of(), deletes(file, 2, 5)));
      List<JsonNode> second = actions(path, 2);
      JsonNode remove = only(second, "remove");
      JsonNode add = only(second, "add");
      assertThat(remove.get("path").asText()).isEqualTo(add.get("path").asText());
      assertThat(remove.hasNonNull("deletionVector")).isFalse();
      assertThat(remove.get("dataChange").asBoolean()).isTrue();
      assertThat(remove.get("size").asLong()).isEqualTo(file.sizeBytes());
      assertThat(add.get("deletionVector").get("cardinality").asLong()).isEqualTo(2);
      assertThat(add.get("deletionVector").get("storageType").asText()).isEqualTo("u");
      JsonNode stats = JSON.readTree(add.get("stats").asText());
      assertThat(stats.get("tightBounds").asBoolean()).isFalse();
      assertThat(stats.get("numRecords").asLong()).isEqualTo(10);
      assertThat(ids(path)).containsExactlyInAnyOrder(0L, 1L, 3L, 4L, 6L, 7L, 8L, 9L);

      TestTables.committed(table.commit("app", 3, List.of(), deletes(file, 7)));
      List<JsonNode> third = actions(path, 3);
      assertThat(only(third, "remove").get("deletionVector")).isEqualTo(add.get("deletionVector"));
      assertThat(only(third, "add").get("deletionVector").get("cardinality").asLong()).isEqualTo(3);
      assertThat(ids(path)).containsExactlyInAnyOrder(0L, 1L, 3L, 4L, 6L, 8L, 9L);
      assertThat(vectorFiles()).hasSize(2);
    }
  }

  @Test
  void deletesInAFileOfTheSameCommitGoIntoItsFirstAdd() throws Exception {
    String path = dir.resolve("t").toUri().toString();
    try (DeltaTable table = create(path, Map.of())) {
      DataFile file = writeRows(path, 0, 4).get(0);
      TestTables.committed(table.commit("app", 1, List.of(file), deletes(file, 0, 3)));

      List<JsonNode> first = actions(path, 1);
      assertThat(first).noneMatch(action -> action.has("remove"));
      assertThat(only(first, "add").get("deletionVector").get("cardinality").asLong()).isEqualTo(2);
      assertThat(ids(path)).containsExactlyInAnyOrder(1L, 2L);
    }
  }

  @Test
  void aFileWithNoRowLeftIsRemovedAndNotReAdded() throws Exception {
    String path = dir.resolve("t").toUri().toString();
    try (DeltaTable table = create(path, Map.of())) {
      DataFile file = commitKeysZeroToFour(table, path);
      DataFile other = writeRows(path, 5, 2).get(0);
      TestTables.committed(table.commit("app", 2, List.of(other), deletes(file, 0, 2, 4)));
      int vectors = vectorFiles().size();

      TestTables.committed(table.commit("app", 3, List.of(), deletes(file, 1, 3)));

      List<JsonNode> third = actions(path, 3);
      assertThat(only(third, "remove").get("path").asText()).isEqualTo(file.path());
      assertThat(third).noneMatch(action -> action.has("add"));
      assertThat(vectorFiles()).as("no vector is written for a removed file").hasSize(vectors);
      assertThat(ids(path)).containsExactlyInAnyOrder(5L, 6L);
      assertThat(DeltaTableReader.fileCount(path)).as("data files in Kernel's scan").isEqualTo(1);

      // The next commit no longer lists the file: a delete of its rows is stale.
      CommitOutcome stale = table.commit("app", 4, List.of(), deletes(file, 0));
      assertThat(((CommitOutcome.Conflicted) stale).cause())
          .isInstanceOf(RewrittenFileException.class);
    }
  }

  @Test
  void aNewFileWithNoRowLeftIsNotAdded() throws Exception {
    String path = dir.resolve("t").toUri().toString();
    try (DeltaTable table = create(path, Map.of())) {
      List<DataFile> files = writeRows(path, 0, 3);
      DataFile file = files.get(0);
      DataFile kept = writeRows(path, 3, 1).get(0);

      TestTables.committed(table.commit("app", 1, List.of(file, kept), deletes(file, 0, 1, 2)));

      assertThat(actions(path, 1).stream().filter(a -> a.has("add")).map(a -> a.get("add")))
          .extracting(add -> add.get("path").asText())
          .containsExactly(kept.path());
      assertThat(vectorFiles()).isEmpty();
      assertThat(ids(path)).containsExactly(3L);
    }
  }

  @Test
  void aReAddedFileKeepsItsRowIds() throws Exception {
    String path = dir.resolve("t").toUri().toString();
    try (DeltaTable table = create(path, Map.of("delta.enableRowTracking", "true"))) {
      DataFile file = writeRows(path, 0, 10).get(0);
      TestTables.committed(table.commit("app", 1, List.of(file)));
      JsonNode added = only(actions(path, 1), "add");
      assertThat(added.hasNonNull("baseRowId")).isTrue();

      TestTables.committed(table.commit("app", 2, List.of(), deletes(file, 1)));
      List<JsonNode> second = actions(path, 2);
      for (String kind : List.of("remove", "add")) {
        JsonNode action = only(second, kind);
        assertThat(action.get("baseRowId")).as(kind).isEqualTo(added.get("baseRowId"));
        assertThat(action.get("defaultRowCommitVersion"))
            .as(kind)
            .isEqualTo(added.get("defaultRowCommitVersion"));
      }

      // The commit after an upsert still finds the file (with row tracking, by a new listing).
      TestTables.committed(table.commit("app", 3, List.of(), deletes(file, 2)));
      assertThat(ids(path)).containsExactlyInAnyOrder(0L, 3L, 4L, 5L, 6L, 7L, 8L, 9L);
    }
  }

  @Test
  void aReplayedUpsertWritesNothing() throws Exception {
    String path = dir.resolve("t").toUri().toString();
    try (DeltaTable table = create(path, Map.of())) {
      DataFile file = commitKeysZeroToFour(table, path);
      TestTables.committed(table.commit("app", 2, List.of(), deletes(file, 4)));
      long version = table.snapshot().getVersion();

      assertThat(table.commit("app", 2, List.of(), deletes(file, 4)))
          .isInstanceOf(CommitOutcome.AlreadyCommitted.class);
      assertThat(DeltaTableReader.version(path)).isEqualTo(version);
      assertThat(ids(path)).containsExactlyInAnyOrder(0L, 1L, 2L, 3L);
    }
  }

  @Test
  void aFileOfTheNullPartitionIsReAddedInIt() throws Exception {
    String path = dir.resolve("t").toUri().toString();
    RowType partitioned =
        RowType.of(
            new LogicalType[] {new BigIntType(false), new BigIntType()}, new String[] {"id", "p"});
    Map<String, String> properties = Map.of("delta.enableDeletionVectors", "true");
    try (DeltaTable table = TestTables.create(path, partitioned, List.of("p"), properties)) {
      List<RowData> rows = new ArrayList<>();
      for (long i = 0; i < 4; i++) {
        rows.add(GenericRowData.of(i, null));
      }
      DataFile file = TestTables.writeFiles(path, partitioned, List.of("p"), rows).get(0);
      TestTables.committed(table.commit("app", 1, List.of(file)));

      TestTables.committed(table.commit("app", 2, List.of(), deletes(file, 2)));

      JsonNode add = only(actions(path, 2), "add");
      assertThat(add.get("partitionValues").has("p")).isTrue();
      assertThat(add.get("partitionValues").get("p").isNull()).isTrue();
      assertThat(DeltaTableReader.readAll(path))
          .containsExactlyInAnyOrder(
              java.util.Arrays.asList(0L, null),
              java.util.Arrays.asList(1L, null),
              java.util.Arrays.asList(3L, null));
    }
  }

  @Test
  void anUpsertCommitAfterAnotherWriterTurnsDeletionVectorsOffIsRefused() throws Exception {
    String path = dir.resolve("t").toUri().toString();
    try (DeltaTable table = create(path, Map.of())) {
      table.settleStaleDeletesBy(KEY);
      table.checkCommitsAgainst(table.layoutFor(TYPE, List.of()));
      DataFile file = commitKeysZeroToFour(table, path);
      try (DeltaTable other = TestTables.open(path)) {
        other.metadata().updateProperties(Map.of("delta.enableDeletionVectors", "false"));
      }
      long version = DeltaTableReader.version(path);

      CommitOutcome outcome = table.commit("app", 2, List.of(), deletes(file, 1));

      assertThat(((CommitOutcome.Conflicted) outcome).cause())
          .isInstanceOf(SchemaChangedException.class)
          .hasMessageContaining("delta.enableDeletionVectors");
      assertThat(DeltaTableReader.version(path)).isEqualTo(version);
      assertThat(ids(path)).containsExactlyInAnyOrder(0L, 1L, 2L, 3L, 4L);
    }
  }

  @Test
  void rowsAnotherWriterDeletedAreNotDeletedAgainButRefused() throws Exception {
    String path = dir.resolve("t").toUri().toString();
    try (DeltaTable table = create(path, Map.of())) {
      DataFile file = commitKeysZeroToFour(table, path);
      // Another writer deletes row 3 (and may have written its key anew elsewhere).
      TestTables.committed(table.commit("other", 1, List.of(), deletes(file, 3)));
      long version = table.snapshot().getVersion();

      CommitOutcome outcome = table.commit("app", 2, List.of(), deletes(file, 1, 3));

      assertThat(outcome).isInstanceOf(CommitOutcome.Conflicted.class);
      assertThat(((CommitOutcome.Conflicted) outcome).cause())
          .isInstanceOf(RewrittenFileException.class)
          .hasMessageContaining("another writer deleted rows of data file")
          .hasMessageContaining(path);
      assertThat(DeltaTableReader.version(path)).isEqualTo(version);
      assertThat(ids(path)).containsExactlyInAnyOrder(0L, 1L, 2L, 4L);
    }
  }

  @Test
  void deletesOfRowsAnotherWriterMovedAreSettledByKey() throws Exception {
    String path = dir.resolve("t").toUri().toString();
    try (DeltaTable table = create(path, Map.of())) {
      table.settleStaleDeletesBy(KEY);
      DataFile file = commitKeysZeroToFour(table, path);
      // Another writer compacts: the rows move into a file of its own, the old one is removed.
      DataFile moved = writeRows(path, 0, 5).get(0);
      TestTables.committed(table.commit("other", 1, List.of(moved)));
      long removedAt = removeFromLog(path, file);

      // Key 3 gets a new row, key 1 is deleted: both deletes point into the removed file.
      DataFile update = writeRows(path, 3, 1).get(0);
      FileDeletes deletes = deletes(file, 1, 3);
      deletes.addDeletedKey("1");
      CommitOutcome outcome = table.commit("app", 2, List.of(update), deletes);

      assertThat(outcome).isInstanceOf(CommitOutcome.Committed.class);
      assertThat(((CommitOutcome.Committed) outcome).staleRows()).isEqualTo(2);
      assertThat(ids(path)).containsExactlyInAnyOrder(0L, 2L, 3L, 4L);
      List<JsonNode> committed = actions(path, removedAt + 1);
      assertThat(committed.stream().filter(a -> a.has("add")).map(a -> a.get("add")))
          .extracting(add -> add.get("path").asText())
          .doesNotContain(file.path())
          .contains(moved.path(), update.path());
    }
  }

  @Test
  void deletesOfRowsAnotherWriterDeletedAreSettledByKeyAndItsNewRowsGo() throws Exception {
    String path = dir.resolve("t").toUri().toString();
    try (DeltaTable table = create(path, Map.of())) {
      table.settleStaleDeletesBy(KEY);
      DataFile file = commitKeysZeroToFour(table, path);
      // Another writer updates key 3: a deletion vector on its row and the key written anew.
      TestTables.committed(table.commit("other", 1, writeRows(path, 3, 1), deletes(file, 3)));

      // Keys 1 and 3 get new rows; the delete of key 3's row is stale, that of key 1's is not.
      DataFile update = TestTables.writeFiles(path, TYPE, List.of(), rows(1, 3)).get(0);
      CommitOutcome outcome = table.commit("app", 2, List.of(update), deletes(file, 1, 3));

      assertThat(((CommitOutcome.Committed) outcome).staleRows()).isEqualTo(1);
      assertThat(ids(path)).containsExactlyInAnyOrder(0L, 1L, 2L, 3L, 4L);
      assertThat(DeltaTableReader.readAll(path).stream().map(row -> (Long) row.get(0)))
          .doesNotHaveDuplicates();
    }
  }

  @Test
  void aDeleteOfADuplicateRowBesideAStaleDeleteCommitsExactly() throws Exception {
    String path = dir.resolve("t").toUri().toString();
    try (DeltaTable table = create(path, Map.of())) {
      table.settleStaleDeletesBy(KEY);
      DataFile file = commitKeysZeroToFour(table, path);
      // Another writer wrote key 2 a second time: a writer reading the table's keys keeps one row
      // of it and deletes the other, by position alone.
      DataFile again = writeRows(path, 2, 1).get(0);
      TestTables.committed(table.commit("other", 1, List.of(again)));
      long indexVersion = table.snapshot().getVersion();
      // Then it deletes key 3, which the checkpoint deletes too.
      TestTables.committed(table.commit("other", 2, List.of(), deletes(file, 3)));
      FileDeletes deletes = deletes(file, 2, 3);
      deletes.addDeletedKey("3");
      deletes.setIndexVersion(indexVersion);

      CommitOutcome outcome = table.commit("app", 2, List.of(), deletes);

      assertThat(((CommitOutcome.Committed) outcome).staleRows()).isEqualTo(1);
      assertThat(ids(path)).containsExactlyInAnyOrder(0L, 1L, 2L, 4L);
    }
  }

  /**
   * File ids are 64-bit hashes of paths, so whoever may add files to the table can add one whose id
   * is that of a file of the job: a delete naming that id cannot tell the two apart. The rows of
   * both are settled by key instead, and the commit deletes exactly the rows of the keys it should.
   */
  @Test
  void aFileAnotherWriterAddsUnderTheIdOfOneOfOursStopsNoCommit() throws Exception {
    String path = dir.resolve("t").toUri().toString();
    // Two paths whose FNV-1a hashes collide, found by a cycle search over names of this shape.
    String ourName = "part-f8161f2df67dfff9.parquet";
    String theirName = "part-38a4cb633ecbc42f.parquet";
    assertThat(FileIds.of(ourName)).isEqualTo(FileIds.of(theirName));
    try (DeltaTable table = create(path, Map.of())) {
      table.settleStaleDeletesBy(KEY);
      DataFile ours = renamed(writeRows(path, 0, 5).get(0), ourName);
      TestTables.committed(table.commit("app", 1, List.of(ours)));
      DataFile theirs = renamed(writeRows(path, 10, 5).get(0), theirName);
      TestTables.committed(table.commit("other", 1, List.of(theirs)));
      // The job's index has followed the other writer's version: both files carry one id.
      FileDeletes deletes = deletes(ours, 1, 3);
      deletes.addDeletedKey("1");
      deletes.addDeletedKey("3");
      deletes.setIndexVersion(table.snapshot().getVersion());

      CommitOutcome outcome = table.commit("app", 2, List.of(), deletes);

      assertThat(outcome).isInstanceOf(CommitOutcome.Committed.class);
      assertThat(ids(path)).containsExactlyInAnyOrder(0L, 2L, 4L, 10L, 11L, 12L, 13L, 14L);

      // The next commit finds both files again, each with its own vector, and deletes key 12.
      FileDeletes next = deletes(theirs, 2);
      next.addDeletedKey("12");
      next.setIndexVersion(table.snapshot().getVersion());

      TestTables.committed(table.commit("app", 3, List.of(), next));

      assertThat(ids(path)).containsExactlyInAnyOrder(0L, 2L, 4L, 10L, 11L, 13L, 14L);
    }
  }

  /** {@code file} moved to {@code name} in the same directory, before it is committed. */
  private DataFile renamed(DataFile file, String name) throws IOException {
    Path table = dir.resolve("t");
    Files.move(table.resolve(file.path()), table.resolve(name));
    return new DataFile(
        name, file.sizeBytes(), file.numRecords(), file.partitionValues(), file.statsJson());
  }

  @Test
  void staleDeletesOfStateWithoutTheirKeysAreRefusedEvenWhenSettlingByKey() throws Exception {
    String path = dir.resolve("t").toUri().toString();
    try (DeltaTable table = create(path, Map.of())) {
      table.settleStaleDeletesBy(KEY);
      DataFile file = commitKeysZeroToFour(table, path);
      TestTables.committed(table.commit("other", 1, List.of(), deletes(file, 3)));
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      DataOutputStream out = new DataOutputStream(bytes);
      // State of the first connector version with deletes: positions only.
      out.writeInt(1);
      out.writeLong(FileIds.of(file.path()));
      deletes(file, 3).byFile().get(FileIds.of(file.path())).writeTo(out);
      FileDeletes deletes =
          FileDeletes.readFrom(
              new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())),
              FileDeletes.Format.POSITIONS);

      CommitOutcome outcome = table.commit("app", 2, List.of(), deletes);

      assertThat(((CommitOutcome.Conflicted) outcome).cause())
          .isInstanceOf(RewrittenFileException.class);
      assertThat(ids(path)).containsExactlyInAnyOrder(0L, 1L, 2L, 4L);
    }
  }

  /** Commits a version that removes {@code file}, as another engine's compaction would. */
  private static long removeFromLog(String path, DataFile file) throws IOException {
    long version = DeltaTableReader.version(path) + 1;
    Path log =
        Path.of(java.net.URI.create(path))
            .resolve("_delta_log")
            .resolve(String.format("%020d.json", version));
    String remove =
        JSON.createObjectNode()
            .set(
                "remove",
                JSON.createObjectNode()
                    .put("path", file.path())
                    .put("deletionTimestamp", System.currentTimeMillis())
                    .put("dataChange", false))
            .toString();
    Files.writeString(log, remove + "\n", java.nio.file.StandardOpenOption.CREATE_NEW);
    return version;
  }

  private static List<RowData> rows(long... ids) {
    List<RowData> rows = new ArrayList<>();
    for (long id : ids) {
      rows.add(GenericRowData.of(id));
    }
    return rows;
  }

  private DeltaTable create(String path, Map<String, String> properties) {
    Map<String, String> all = new java.util.HashMap<>(properties);
    all.put("delta.enableDeletionVectors", "true");
    return TestTables.create(path, TYPE, List.of(), all);
  }

  /** Commits keys 0 to 4 in one file, as checkpoint 1 of app id {@code app}. */
  private static DataFile commitKeysZeroToFour(DeltaTable table, String path) throws IOException {
    DataFile file = writeRows(path, 0, 5).get(0);
    TestTables.committed(table.commit("app", 1, List.of(file)));
    return file;
  }

  private static List<DataFile> writeRows(String path, long from, long count) throws IOException {
    List<RowData> rows = new ArrayList<>();
    for (long i = from; i < from + count; i++) {
      rows.add(GenericRowData.of(i));
    }
    return TestTables.writeFiles(path, TYPE, List.of(), rows);
  }

  private static FileDeletes deletes(DataFile file, long... positions) {
    FileDeletes deletes = new FileDeletes();
    for (long position : positions) {
      deletes.add(FileIds.of(file.path()), position);
    }
    return deletes;
  }

  private static List<Long> ids(String path) {
    return DeltaTableReader.readAll(path).stream().map(row -> (Long) row.get(0)).toList();
  }

  private List<Path> vectorFiles() throws IOException {
    try (Stream<Path> files = Files.list(dir.resolve("t"))) {
      return files
          .filter(f -> f.getFileName().toString().matches("deletion_vector_.*\\.bin"))
          .toList();
    }
  }

  private List<JsonNode> actions(String path, long version) throws IOException {
    Path log = dir.resolve("t").resolve("_delta_log").resolve(String.format("%020d.json", version));
    List<JsonNode> actions = new ArrayList<>();
    for (String line : Files.readAllLines(log)) {
      actions.add(JSON.readTree(line));
    }
    return actions;
  }

  private static JsonNode only(List<JsonNode> actions, String kind) {
    List<JsonNode> found = actions.stream().filter(a -> a.has(kind)).map(a -> a.get(kind)).toList();
    assertThat(found).as(kind + " actions").hasSize(1);
    return found.get(0);
  }
}
