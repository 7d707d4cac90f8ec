/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.table;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.flinkdelta.core.maintenance.CompactionOptions;
import io.github.flinkdelta.core.maintenance.CompactionResult;
import io.github.flinkdelta.core.maintenance.TableMaintenance;
import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.core.testing.TestTables;
import io.github.flinkdelta.core.upsert.FileDeletes;
import io.github.flinkdelta.core.write.DataFile;
import io.github.flinkdelta.core.write.FileIds;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.BooleanType;
import org.apache.flink.table.types.logical.DateType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.VarBinaryType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Compaction of tables this project writes: the rows read through Kernel are the same before and
 * after (every type the sink writes, deleted rows gone), each new file stays in one partition with
 * valid statistics, the version says {@code dataChange = false}, and commits of other writers that
 * land while a rewrite is under way either commute with it or make it plan again.
 */
class TableCompactionTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final RowType TYPE =
      RowType.of(
          new LogicalType[] {
            new BigIntType(false),
            new VarCharType(VarCharType.MAX_LENGTH),
            new DecimalType(10, 2),
            new LocalZonedTimestampType(6),
            new TimestampType(6),
            new DateType(),
            new BooleanType(),
            new DoubleType(),
            new VarBinaryType(VarBinaryType.MAX_LENGTH),
            new ArrayType(new VarCharType(VarCharType.MAX_LENGTH)),
            new MapType(new VarCharType(VarCharType.MAX_LENGTH), new IntType()),
            RowType.of(
                new LogicalType[] {new IntType(), new VarCharType(VarCharType.MAX_LENGTH)},
                new String[] {"a", "b"})
          },
          new String[] {
            "id", "p", "amount", "ts", "local", "day", "flag", "score", "bytes", "tags", "attrs",
            "nested"
          });
  private static final CompactionOptions OPTIONS =
      new CompactionOptions(128L << 20, 5, 1L << 40, 0.2);

  @TempDir Path dir;

  @Test
  void smallFilesBecomeOneFileHoldingTheSameRows() throws Exception {
    String path = dir.resolve("t").toUri().toString();
    try (DeltaTable table = create(path, List.of(), Map.of())) {
      commitFiles(table, path, 10, 20);
      List<List<Object>> before = DeltaTableReader.readAll(path);

      CompactionResult result = table.maintenance().compact(OPTIONS, "compaction");

      assertThat(result.filesRemoved()).isEqualTo(10);
      assertThat(result.filesAdded()).isEqualTo(1);
      assertThat(result.rowsWritten()).isEqualTo(200);
      assertThat(DeltaTableReader.readAll(path)).containsExactlyInAnyOrderElementsOf(before);
      assertThat(DeltaTableReader.fileCount(path)).isEqualTo(1);
      List<JsonNode> actions = actions(path, result.version());
      assertThat(actions.stream().filter(a -> a.has("remove") || a.has("add")))
          .hasSize(11)
          .allSatisfy(
              a ->
                  assertThat((a.has("add") ? a.get("add") : a.get("remove")).get("dataChange"))
                      .hasToString("false"));
      JsonNode stats = JSON.readTree(add(actions).get("stats").asText());
      assertThat(stats.get("numRecords").asLong()).isEqualTo(200);
      assertThat(stats.get("minValues").get("id").asLong()).isZero();
      assertThat(stats.get("maxValues").get("id").asLong()).isEqualTo(199);
    }
  }

  @Test
  void aPartitionedTableIsCompactedWithinEachPartition() throws Exception {
    String path = dir.resolve("t").toUri().toString();
    try (DeltaTable table = create(path, List.of("p"), Map.of())) {
      commitFiles(table, path, 6, 30); // each file holds rows of three partitions
      List<List<Object>> before = DeltaTableReader.readAll(path);
      assertThat(DeltaTableReader.fileCount(path)).isEqualTo(18);

      CompactionResult result = table.maintenance().compact(OPTIONS, "compaction");

      assertThat(result.filesRemoved()).isEqualTo(18);
      assertThat(result.filesAdded()).isEqualTo(3);
      assertThat(DeltaTableReader.readAll(path)).containsExactlyInAnyOrderElementsOf(before);
      List<JsonNode> adds =
          actions(path, result.version()).stream().filter(a -> a.has("add")).toList();
      assertThat(adds)
          .extracting(a -> a.get("add").get("partitionValues").get("p").asText())
          .containsExactlyInAnyOrder("p0", "p1", "p2");
    }
  }

  @Test
  void rowsThatDeletionVectorsDeleteAreDroppedAndTheNewFileHasNoVector() throws Exception {
    String path = dir.resolve("t").toUri().toString();
    try (DeltaTable table =
        create(path, List.of(), Map.of("delta.enableDeletionVectors", "true"))) {
      List<DataFile> files = commitFiles(table, path, 5, 10);
      TestTables.committed(table.commit("other", 1, List.of(), deletes(files.get(0), 0, 3, 9)));
      TestTables.committed(table.commit("other", 2, List.of(), deletes(files.get(4), 5)));
      List<List<Object>> before = DeltaTableReader.readAll(path);
      assertThat(before).hasSize(46);

      CompactionResult result = table.maintenance().compact(OPTIONS, "compaction");

      assertThat(result.rowsWritten()).isEqualTo(46);
      assertThat(DeltaTableReader.readAll(path)).containsExactlyInAnyOrderElementsOf(before);
      assertThat(add(actions(path, result.version())).has("deletionVector")).isFalse();
      List<JsonNode> removes =
          actions(path, result.version()).stream().filter(a -> a.has("remove")).toList();
      // The removes name the vectors they drop, as the protocol asks of a file's remove.
      assertThat(removes.stream().filter(a -> a.get("remove").has("deletionVector"))).hasSize(2);
    }
  }

  @Test
  void aTableWithColumnMappingKeepsItsPhysicalColumns() throws Exception {
    String path = dir.resolve("t").toUri().toString();
    try (DeltaTable table =
        create(path, List.of("p"), Map.of("delta.columnMapping.mode", "name"))) {
      commitFiles(table, path, 5, 3);
      List<List<Object>> before = DeltaTableReader.readAll(path);

      CompactionResult result = table.maintenance().compact(OPTIONS, "compaction");

      assertThat(result.filesAdded()).isEqualTo(3);
      assertThat(DeltaTableReader.readAll(path)).containsExactlyInAnyOrderElementsOf(before);
      JsonNode stats = JSON.readTree(add(actions(path, result.version())).get("stats").asText());
      assertThat(stats.get("minValues").fieldNames())
          .toIterable()
          .allMatch(n -> n.startsWith("col-"));
    }
  }

  @Test
  void anAppendWhileTheRewriteIsUnderWayCommutesWithIt() throws Exception {
    String path = dir.resolve("t").toUri().toString();
    try (DeltaTable table = create(path, List.of(), Map.of());
        DeltaTable other = TestTables.open(path)) {
      commitFiles(table, path, 5, 10);
      List<List<Object>> expected = new ArrayList<>(DeltaTableReader.readAll(path));
      AtomicInteger fired = new AtomicInteger();

      CompactionResult result =
          table
              .maintenance()
              .compaction()
              .beforeEachCommit(
                  () -> {
                    if (fired.getAndIncrement() == 0) {
                      appendRows(other, path, 100, 7);
                    }
                  })
              .run(OPTIONS, TableMaintenance.writeOptionsFor(OPTIONS), "compaction");

      assertThat(fired).hasValue(1);
      assertThat(result.attempts()).isEqualTo(1);
      assertThat(result.filesRemoved()).isEqualTo(5);
      expected.addAll(rowsAsRead(path, 100, 7));
      assertThat(DeltaTableReader.readAll(path)).containsExactlyInAnyOrderElementsOf(expected);
      assertThat(DeltaTableReader.fileCount(path)).isEqualTo(2);
    }
  }

  @Test
  void aNewDeletionVectorOnARewrittenFileMakesTheRewriteYieldAndPlanAgain() throws Exception {
    String path = dir.resolve("t").toUri().toString();
    try (DeltaTable table = create(path, List.of(), Map.of("delta.enableDeletionVectors", "true"));
        DeltaTable other = TestTables.open(path)) {
      List<DataFile> files = commitFiles(table, path, 5, 10);
      AtomicInteger fired = new AtomicInteger();

      CompactionResult result =
          table
              .maintenance()
              .compaction()
              .beforeEachCommit(
                  () -> {
                    if (fired.getAndIncrement() == 0) {
                      // An upsert deletes row 4 of a file the plan rewrites, after the rewrite read
                      // it: committing the plan would bring the row back.
                      other.reload();
                      TestTables.committed(
                          other.commit("other", 1, List.of(), deletes(files.get(2), 4)));
                    }
                  })
              .run(OPTIONS, TableMaintenance.writeOptionsFor(OPTIONS), "compaction");

      assertThat(fired).hasValue(2);
      assertThat(result.attempts()).isEqualTo(2);
      assertThat(result.rowsWritten()).isEqualTo(49);
      List<Object> deleted = rowsAsRead(path, 24, 1).get(0);
      assertThat(DeltaTableReader.readAll(path)).hasSize(49).doesNotContain(deleted);
      // The yielded attempt's file is gone; only the committed one remains.
      assertThat(compactedFilesOnDisk()).hasSize(1);
    }
  }

  @Test
  void twoCompactionsNeverRewriteOneFileTwice() throws Exception {
    String path = dir.resolve("t").toUri().toString();
    try (DeltaTable table = create(path, List.of(), Map.of());
        DeltaTable other = TestTables.open(path)) {
      commitFiles(table, path, 6, 10);
      List<List<Object>> before = DeltaTableReader.readAll(path);
      AtomicInteger fired = new AtomicInteger();
      CompactionResult[] first = new CompactionResult[1];

      CompactionResult second =
          table
              .maintenance()
              .compaction()
              .beforeEachCommit(
                  () -> {
                    if (fired.getAndIncrement() == 0) {
                      first[0] = other.maintenance().compact(OPTIONS, "other-compaction");
                    }
                  })
              .run(OPTIONS, TableMaintenance.writeOptionsFor(OPTIONS), "compaction");

      assertThat(first[0].filesRemoved()).isEqualTo(6);
      assertThat(second.committed()).isFalse();
      assertThat(second.attempts()).isEqualTo(2);
      assertThat(DeltaTableReader.readAll(path)).containsExactlyInAnyOrderElementsOf(before);
      assertThat(DeltaTableReader.fileCount(path)).isEqualTo(1);
      assertThat(compactedFilesOnDisk()).hasSize(1);
    }
  }

  @Test
  void aTableWithTheChangeDataFeedIsCompactedWithoutChangeData() throws Exception {
    String path = dir.resolve("t").toUri().toString();
    try (DeltaTable table = create(path, List.of(), Map.of("delta.enableChangeDataFeed", "true"))) {
      commitFiles(table, path, 5, 4);
      List<List<Object>> before = DeltaTableReader.readAll(path);

      CompactionResult result = table.maintenance().compact(OPTIONS, "compaction");

      assertThat(result.filesRemoved()).isEqualTo(5);
      assertThat(DeltaTableReader.readAll(path)).containsExactlyInAnyOrderElementsOf(before);
      assertThat(actions(path, result.version())).noneMatch(a -> a.has("cdc"));
    }
  }

  @Test
  void rowsKeepTheirRowIdsAndCommitVersionsOnATableWithRowTracking() throws Exception {
    String path = dir.resolve("t").toUri().toString();
    try (DeltaTable table = create(path, List.of("p"), Map.of("delta.enableRowTracking", "true"))) {
      commitFiles(table, path, 5, 6);
      Map<Long, List<Long>> before = rowTracking(path);
      assertThat(before).hasSize(30);

      CompactionResult result = table.maintenance().compact(OPTIONS, "compaction");
      CompactionResult again = table.maintenance().compact(OPTIONS, "compaction");

      assertThat(result.filesRemoved()).isEqualTo(15);
      assertThat(rowTracking(path)).isEqualTo(before);
      assertThat(DeltaTableReader.readAll(path)).hasSize(30);
      // Files compacted once keep their rows' ids when compacted again.
      assertThat(again.committed()).isFalse();
      for (int i = 0; i < 5; i++) {
        TestTables.committed(
            table.commit(
                "later",
                i + 1,
                TestTables.writeFiles(path, TYPE, List.of("p"), rows(100 + i * 6, 6))));
      }
      Map<Long, List<Long>> grown = rowTracking(path);
      assertThat(grown).hasSize(60).containsAllEntriesOf(before);
      table.maintenance().compact(OPTIONS, "compaction");
      assertThat(rowTracking(path)).isEqualTo(grown);
    }
  }

  /** Each row's id and commit version, by its {@code id} column, as Kernel reads them. */
  private static Map<Long, List<Long>> rowTracking(String path) throws IOException {
    io.delta.kernel.engine.Engine engine =
        io.delta.kernel.defaults.engine.DefaultEngine.create(
            io.github.flinkdelta.core.storage.HadoopConfigurations.of(Map.of()));
    io.delta.kernel.Snapshot snapshot =
        io.delta.kernel.TableManager.loadSnapshot(path).build(engine);
    io.delta.kernel.types.StructType schema =
        new io.delta.kernel.types.StructType()
            .add("id", io.delta.kernel.types.LongType.LONG)
            .add(
                io.delta.kernel.types.StructField.createMetadataColumn(
                    "row_id", io.delta.kernel.types.MetadataColumnSpec.ROW_ID))
            .add(
                io.delta.kernel.types.StructField.createMetadataColumn(
                    "row_commit_version",
                    io.delta.kernel.types.MetadataColumnSpec.ROW_COMMIT_VERSION));
    io.delta.kernel.Scan scan = snapshot.getScanBuilder().withReadSchema(schema).build();
    io.delta.kernel.data.Row state = scan.getScanState(engine);
    io.delta.kernel.types.StructType physical =
        io.delta.kernel.internal.data.ScanStateRow.getPhysicalDataReadSchema(state);
    Map<Long, List<Long>> ids = new HashMap<>();
    try (io.delta.kernel.utils.CloseableIterator<io.delta.kernel.data.FilteredColumnarBatch> files =
        scan.getScanFiles(engine)) {
      while (files.hasNext()) {
        try (io.delta.kernel.utils.CloseableIterator<io.delta.kernel.data.Row> scanFiles =
            files.next().getRows()) {
          while (scanFiles.hasNext()) {
            try (var batches =
                io.github.flinkdelta.core.read.ScanFileRows.read(
                    engine, state, physical, scanFiles.next())) {
              while (batches.hasNext()) {
                try (var rows = batches.next().getRows()) {
                  while (rows.hasNext()) {
                    io.delta.kernel.data.Row row = rows.next();
                    ids.put(row.getLong(0), List.of(row.getLong(1), row.getLong(2)));
                  }
                }
              }
            }
          }
        }
      }
    }
    return ids;
  }

  private DeltaTable create(String path, List<String> partitions, Map<String, String> properties) {
    return TestTables.create(path, TYPE, partitions, new HashMap<>(properties));
  }

  /** Commits {@code count} checkpoints of {@code rows} rows each; ids run on across them. */
  private static List<DataFile> commitFiles(DeltaTable table, String path, int count, int rows)
      throws IOException {
    List<DataFile> all = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      List<DataFile> files =
          TestTables.writeFiles(
              path, TYPE, table.snapshot().getPartitionColumnNames(), rows(i * rows, rows));
      TestTables.committed(table.commit("app", i + 1, files));
      all.addAll(files);
    }
    return all;
  }

  private static void appendRows(DeltaTable table, String path, long from, int count) {
    try {
      TestTables.committed(
          table.commit(
              "appender", 1, TestTables.writeFiles(path, TYPE, List.of(), rows(from, count))));
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** The rows {@link #rows} makes, as the test reader reads them back. */
  private List<List<Object>> rowsAsRead(String path, long from, int count) throws IOException {
    String scratch = dir.resolve("scratch-" + from).toUri().toString();
    try (DeltaTable table = create(scratch, List.of(), Map.of())) {
      TestTables.committed(
          table.commit(
              "app", 1, TestTables.writeFiles(scratch, TYPE, List.of(), rows(from, count))));
    }
    return DeltaTableReader.readAll(scratch);
  }

  private static List<RowData> rows(long from, int count) {
    List<RowData> rows = new ArrayList<>();
    for (long id = from; id < from + count; id++) {
      rows.add(
          GenericRowData.of(
              id,
              StringData.fromString("p" + id % 3),
              DecimalData.fromBigDecimal(BigDecimal.valueOf(id * 101, 2), 10, 2),
              TimestampData.fromEpochMillis(1_700_000_000_000L + id, (int) (id % 1000) * 1000),
              TimestampData.fromEpochMillis(-86_400_000L + id * 7),
              (int) (19_000 + id),
              id % 2 == 0,
              id * 0.5,
              new byte[] {(byte) id, 1, 2},
              new GenericArrayData(new Object[] {StringData.fromString("t" + id), null}),
              new GenericMapData(Map.of(StringData.fromString("k" + id), (int) id)),
              id % 5 == 0 ? null : GenericRowData.of((int) id, StringData.fromString("n" + id))));
    }
    return rows;
  }

  private static FileDeletes deletes(DataFile file, long... positions) {
    FileDeletes deletes = new FileDeletes();
    for (long position : positions) {
      deletes.add(FileIds.of(file.path()), position);
    }
    return deletes;
  }

  private List<Path> compactedFilesOnDisk() throws IOException {
    try (Stream<Path> files = Files.walk(dir.resolve("t"))) {
      return files.filter(f -> f.getFileName().toString().startsWith("part-compacted-")).toList();
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

  private static JsonNode add(List<JsonNode> actions) {
    return actions.stream().filter(a -> a.has("add")).findFirst().orElseThrow().get("add");
  }
}
