/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.delta.kernel.TableManager;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.data.FilteredColumnarBatch;
import io.delta.kernel.defaults.engine.DefaultEngine;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.FileStatus;
import io.github.flinkdelta.core.storage.HadoopConfigurations;
import io.github.flinkdelta.core.table.DeltaTable;
import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.core.testing.TestTables;
import io.github.flinkdelta.core.write.DataFile;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Delta checkpoints every few versions, and no checkpoint file at all from a failed write. */
class DeltaCheckpointsTest {

  private static final RowType TYPE =
      RowType.of(new LogicalType[] {new BigIntType()}, new String[] {"id"});

  private static final String ROW_GROUP_KEY = "parquet.block.size";

  @TempDir Path dir;

  @Test
  void everyIntervalVersionIsCheckpointedAndSnapshotsLoadFromIt() throws Exception {
    String path = dir.resolve("t").toUri().toString();
    List<List<Object>> expected = commitNineVersionsCheckpointingEveryFour(path, Map.of());

    assertThat(logFiles())
        .contains(
            "00000000000000000004.checkpoint.parquet", "00000000000000000008.checkpoint.parquet");
    assertThat(logFiles()).noneMatch(name -> name.endsWith(".tmp"));
    assertThat(Files.readString(dir.resolve("t/_delta_log/_last_checkpoint")))
        .contains("\"version\":8");
    assertThat(checkpointMetadataVersions(path, 8)).isEmpty();
    // Version 9 loads from checkpoint 8 plus one commit, and reads the same rows.
    assertThat(DeltaTableReader.readAll(path)).containsExactlyInAnyOrderElementsOf(expected);
    assertCheckpoint8AloneServes(path, expected);
  }

  @Test
  void aTableWithV2CheckpointsGetsV2SpecCheckpoints() throws Exception {
    String path = dir.resolve("t").toUri().toString();
    List<List<Object>> expected =
        commitNineVersionsCheckpointingEveryFour(path, Map.of("delta.checkpointPolicy", "v2"));
    Engine kernel = DefaultEngine.create(HadoopConfigurations.of(Map.of()));
    assertThat(TableManager.loadSnapshot(path).build(kernel).getProtocol().getWriterFeatures())
        .contains("v2Checkpoint");

    // Classic-named V2 checkpoints: the checkpoint metadata action, once, with the version.
    assertThat(checkpointMetadataVersions(path, 4)).containsExactly(4L);
    assertThat(checkpointMetadataVersions(path, 8)).containsExactly(8L);
    assertCheckpoint8AloneServes(path, expected);
  }

  @Test
  void checkpointsAreWrittenInRowGroupsOfBoundedSize() throws Exception {
    assertThat(AtomicCheckpointEngine.checkpointConf(new Configuration(false)).get(ROW_GROUP_KEY))
        .isEqualTo(Long.toString(AtomicCheckpointEngine.CHECKPOINT_ROW_GROUP_BYTES));
    Configuration small = HadoopConfigurations.of(Map.of());
    small.setLong(ROW_GROUP_KEY, 1);
    assertThat(AtomicCheckpointEngine.checkpointConf(small).get(ROW_GROUP_KEY)).isEqualTo("1");

    // A row group holds its rows in memory until it is complete; with a tiny bound, Parquet closes
    // one at its first size check (every 100 rows), so 1,200 files take several.
    String path = dir.resolve("t").toUri().toString();
    TestTables.create(path, small, TYPE, List.of(), Map.of()).close();
    try (DeltaTable table = TestTables.open(path, small);
        DeltaCheckpoints checkpoints = table.checkpoints(4)) {
      for (long version = 1; version <= 4; version++) {
        List<DataFile> files = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
          files.add(
              new DataFile(
                  "part-" + version + "-" + i + ".parquet",
                  1_000,
                  1,
                  Map.of(),
                  "{\"numRecords\":1,\"minValues\":{\"id\":" + i + "}}"));
        }
        TestTables.committed(table.commit("app", version, files));
        checkpoints.committed(table.snapshot());
      }
      TestTables.awaitCheckpoint(checkpoints, 4);
      assertThat(checkpoints.latestCheckpointVersion()).isEqualTo(4);
    }
    Path checkpoint = dir.resolve("t/_delta_log/00000000000000000004.checkpoint.parquet");
    try (ParquetFileReader reader =
        ParquetFileReader.open(
            HadoopInputFile.fromPath(
                new org.apache.hadoop.fs.Path(checkpoint.toUri()), new Configuration(false)))) {
      assertThat(reader.getFooter().getBlocks()).hasSizeGreaterThan(3);
      assertThat(reader.getRecordCount()).isGreaterThan(1_200);
    }
    // Without the commits before it, version 4 loads from the checkpoint's row groups alone.
    for (long v = 0; v < 4; v++) {
      Files.delete(dir.resolve(String.format("t/_delta_log/%020d.json", v)));
    }
    assertThat(DeltaTableReader.fileCount(path)).isEqualTo(1_200);
  }

  @Test
  void aCheckpointIsWrittenWithoutLookingUpHadoopsConfigurationFiles() throws Exception {
    String path = dir.resolve("t").toUri().toString();
    Configuration conf = HadoopConfigurations.of(Map.of());
    TestTables.create(path, conf, TYPE, List.of(), Map.of()).close();
    AtomicCheckpointEngine engine = AtomicCheckpointEngine.on(conf);
    try (DeltaTable table = TestTables.open(path, conf)) {
      for (long version = 1; version <= 4; version++) {
        TestTables.committed(
            table.commit(
                "app",
                version,
                TestTables.writeFiles(path, TYPE, List.of(), List.of(GenericRowData.of(version)))));
      }
      // Every Hadoop Configuration made on this thread looks its files up through it.
      Thread thread = Thread.currentThread();
      ClassLoader previous = thread.getContextClassLoader();
      ConfigurationFileLookups lookups = new ConfigurationFileLookups(previous);
      thread.setContextClassLoader(lookups);
      try {
        table.snapshot().writeCheckpoint(engine.forCheckpointOf(table.snapshot()));
      } finally {
        thread.setContextClassLoader(previous);
      }
      assertThat(lookups.names).isEmpty();
    }
    assertThat(DeltaTableReader.lastCheckpointVersion(path)).isEqualTo(4);
    for (long v = 0; v < 4; v++) {
      Files.delete(dir.resolve(String.format("t/_delta_log/%020d.json", v)));
    }
    assertThat(DeltaTableReader.readAll(path))
        .containsExactlyInAnyOrder(List.of(1L), List.of(2L), List.of(3L), List.of(4L));
  }

  /** Records lookups of the files a new Hadoop Configuration reads when first asked. */
  private static final class ConfigurationFileLookups extends ClassLoader {
    final List<String> names = new ArrayList<>();

    ConfigurationFileLookups(ClassLoader parent) {
      super(parent);
    }

    @Override
    public java.net.URL getResource(String name) {
      if (name.equals("core-default.xml") || name.equals("core-site.xml")) {
        names.add(name);
      }
      return super.getResource(name);
    }
  }

  @Test
  void aCheckpointWriteThatFailsHalfwayLeavesNoFile() throws Exception {
    String path = dir.resolve("t").toUri().toString();
    Configuration conf = HadoopConfigurations.of(Map.of());
    TestTables.create(path, conf, TYPE, List.of(), Map.of()).close();
    List<DataFile> files = new ArrayList<>();
    for (long i = 0; i < 3; i++) {
      files.addAll(TestTables.writeFiles(path, TYPE, List.of(), List.of(GenericRowData.of(i))));
    }
    Engine kernel = DefaultEngine.create(conf);
    String target = dir.resolve("t/_delta_log/00000000000000000007.checkpoint.parquet").toString();

    // Kernel's own writer completes the file with what it had when the data fails midway.
    assertThatThrownBy(
            () ->
                kernel
                    .getParquetHandler()
                    .writeParquetFileAtomically(
                        "file:" + target, failingAfterOne(kernel, path, files)))
        .hasStackTraceContaining("storage failed mid-write");
    assertThat(Path.of(target)).exists();
    Files.delete(Path.of(target));

    Engine atomic = new AtomicCheckpointEngine(kernel, conf);
    assertThatThrownBy(
            () ->
                atomic
                    .getParquetHandler()
                    .writeParquetFileAtomically(
                        "file:" + target, failingAfterOne(kernel, path, files)))
        .hasStackTraceContaining("storage failed mid-write");
    assertThat(Path.of(target)).doesNotExist();
    assertThat(logFiles()).noneMatch(name -> name.contains(".checkpoint.parquet"));
    assertThat(TableManager.loadSnapshot(path).build(kernel).getVersion()).isZero();
  }

  /**
   * The committer hands each commit's snapshot to the checkpoint thread and builds the next commit
   * on that same snapshot, so two threads use one Kernel snapshot at once. Every checkpoint written
   * that way holds exactly the files and transaction of its version.
   */
  @Test
  void checkpointsOfTheSnapshotTheNextCommitBuildsOnHoldExactlyTheirVersion() throws Exception {
    String path = dir.resolve("t").toUri().toString();
    Configuration conf = HadoopConfigurations.of(Map.of());
    TestTables.create(path, conf, TYPE, List.of(), Map.of()).close();
    int versions = 30;
    List<List<Object>> expected = new ArrayList<>();
    try (DeltaTable table = TestTables.open(path, conf);
        DeltaCheckpoints checkpoints = table.checkpoints(1)) {
      for (long v = 1; v <= versions; v++) {
        List<DataFile> files = TestTables.writeFiles(path, TYPE, List.of(), List.of(row(v)));
        TestTables.committed(table.commit("app", v, files));
        // No wait: the next commit builds on this snapshot while it is checkpointed.
        checkpoints.committed(table.snapshot());
        expected.add(List.of(v));
      }
      long deadline = System.nanoTime() + 60_000_000_000L;
      while (checkpoints.latestCheckpointVersion() < versions && System.nanoTime() < deadline) {
        checkpoints.committed(table.snapshot());
        Thread.sleep(20);
      }
      assertThat(checkpoints.latestCheckpointVersion()).isEqualTo(versions);
    }

    List<Long> written = new ArrayList<>();
    for (String name : logFiles()) {
      if (name.endsWith(".checkpoint.parquet")) {
        written.add(Long.parseLong(name.substring(0, 20)));
      }
    }
    assertThat(written).hasSizeGreaterThan(1);
    for (long version : written) {
      assertThat(
              checkpointColumn(
                  path, version, "add", "path", io.delta.kernel.types.StringType.STRING))
          .as("files in the checkpoint of version %d", version)
          .hasSize((int) version);
      assertThat(
              checkpointColumn(
                  path, version, "txn", "version", io.delta.kernel.types.LongType.LONG))
          .as("transaction in the checkpoint of version %d", version)
          .containsExactly(version);
    }
    for (long v = 0; v < versions; v++) {
      Files.delete(dir.resolve(String.format("t/_delta_log/%020d.json", v)));
    }
    assertThat(DeltaTableReader.readAll(path)).containsExactlyInAnyOrderElementsOf(expected);
  }

  private static GenericRowData row(long id) {
    return GenericRowData.of(id);
  }

  /** Batches read from the table's data files; the second request for a batch fails. */
  private static CloseableIterator<FilteredColumnarBatch> failingAfterOne(
      Engine engine, String table, List<DataFile> files) throws Exception {
    String root = table.endsWith("/") ? table : table + "/";
    List<FileStatus> statuses = new ArrayList<>();
    for (DataFile file : files) {
      statuses.add(FileStatus.of(root + file.path(), file.sizeBytes(), 0));
    }
    List<ColumnarBatch> batches = new ArrayList<>();
    try (var read =
        engine
            .getParquetHandler()
            .readParquetFiles(
                io.delta.kernel.internal.util.Utils.toCloseableIterator(statuses.iterator()),
                new io.delta.kernel.types.StructType()
                    .add("id", io.delta.kernel.types.LongType.LONG),
                Optional.empty())) {
      read.forEachRemaining(r -> batches.add(r.getData()));
    }
    return new CloseableIterator<>() {
      private int served;

      @Override
      public boolean hasNext() {
        return true;
      }

      @Override
      public FilteredColumnarBatch next() {
        if (served++ == 0) {
          return new FilteredColumnarBatch(batches.get(0), Optional.empty());
        }
        if (served > 2) {
          throw new NoSuchElementException();
        }
        throw new UncheckedIOException(new java.io.IOException("storage failed mid-write"));
      }

      @Override
      public void close() {}
    };
  }

  /** Commits one row in each of versions 1 to 9 with a Delta checkpoint every 4; the rows. */
  private static List<List<Object>> commitNineVersionsCheckpointingEveryFour(
      String path, Map<String, String> properties) throws Exception {
    Configuration conf = HadoopConfigurations.of(Map.of());
    TestTables.create(path, conf, TYPE, List.of(), properties).close();
    List<List<Object>> expected = new ArrayList<>();
    try (DeltaTable table = TestTables.open(path, conf);
        DeltaCheckpoints checkpoints = table.checkpoints(4)) {
      for (long checkpoint = 1; checkpoint <= 9; checkpoint++) {
        TestTables.commitOneRow(TYPE, table, checkpoints, checkpoint);
        expected.add(List.of(checkpoint));
      }
      assertThat(checkpoints.latestCheckpointVersion()).isEqualTo(8);
    }
    return expected;
  }

  /** The versions of the checkpoint metadata actions in the checkpoint of {@code version}. */
  private List<Long> checkpointMetadataVersions(String path, long version) throws Exception {
    return checkpointColumn(
        path, version, "checkpointMetadata", "version", io.delta.kernel.types.LongType.LONG);
  }

  /** The non-null values of {@code action.field} in the checkpoint of {@code version}. */
  private <T> List<T> checkpointColumn(
      String path, long version, String action, String field, io.delta.kernel.types.DataType type)
      throws Exception {
    Engine kernel = DefaultEngine.create(HadoopConfigurations.of(Map.of()));
    Path file = dir.resolve(String.format("t/_delta_log/%020d.checkpoint.parquet", version));
    io.delta.kernel.types.StructType schema =
        new io.delta.kernel.types.StructType()
            .add(action, new io.delta.kernel.types.StructType().add(field, type));
    List<T> values = new ArrayList<>();
    try (var read =
        kernel
            .getParquetHandler()
            .readParquetFiles(
                io.delta.kernel.internal.util.Utils.toCloseableIterator(
                    List.of(FileStatus.of(file.toUri().toString(), Files.size(file), 0))
                        .iterator()),
                schema,
                Optional.empty())) {
      while (read.hasNext()) {
        var vector = read.next().getData().getColumnVector(0);
        for (int row = 0; row < vector.getSize(); row++) {
          if (!vector.isNullAt(row)) {
            var child = vector.getChild(0);
            @SuppressWarnings("unchecked")
            T value =
                (T)
                    (type instanceof io.delta.kernel.types.LongType
                        ? (Object) child.getLong(row)
                        : child.getString(row));
            values.add(value);
          }
        }
      }
    }
    return values;
  }

  /** With the commits before it and the earlier checkpoint gone, only checkpoint 8 can serve. */
  private void assertCheckpoint8AloneServes(String path, List<List<Object>> expected)
      throws Exception {
    for (long v = 0; v < 8; v++) {
      Files.delete(dir.resolve(String.format("t/_delta_log/%020d.json", v)));
    }
    Files.delete(dir.resolve("t/_delta_log/00000000000000000004.checkpoint.parquet"));
    assertThat(DeltaTableReader.readAll(path)).containsExactlyInAnyOrderElementsOf(expected);
  }

  private List<String> logFiles() throws Exception {
    try (Stream<Path> files = Files.list(dir.resolve("t/_delta_log"))) {
      return files.map(p -> p.getFileName().toString()).toList();
    }
  }
}
