/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkdelta.core.checkpoint.DeltaCheckpoints;
import io.github.flinkdelta.core.maintenance.CompactionOptions;
import io.github.flinkdelta.core.maintenance.TableVacuum;
import io.github.flinkdelta.core.maintenance.VacuumResult;
import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.core.testing.TestTables;
import io.github.flinkdelta.core.upsert.FileDeletes;
import io.github.flinkdelta.core.write.DataFile;
import io.github.flinkdelta.core.write.FileIds;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
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
 * Vacuum deletes exactly the files no version within the retention references: orphans of writer
 * attempts older than the retention, and files (data and deletion vectors) that versions older than
 * the retention removed; what the latest version holds, what younger versions removed, and every
 * file younger than the retention stay.
 */
class TableVacuumTest {

  private static final RowType TYPE =
      RowType.of(new LogicalType[] {new BigIntType(false)}, new String[] {"id"});
  private static final Duration WEEK = Duration.ofDays(7);
  private static final long EIGHT_DAYS_AGO =
      System.currentTimeMillis() - Duration.ofDays(8).toMillis();

  @TempDir Path dir;

  @Test
  void orphansOlderThanTheRetentionGoAndEverythingReferencedStays() throws Exception {
    String path = dir.resolve("t").toUri().toString();
    try (DeltaTable table = create(path, Map.of())) {
      for (int i = 0; i < 3; i++) {
        TestTables.committed(table.commit("app", i + 1, writeRows(path, i * 10, 10)));
      }
      List<DataFile> oldOrphans = new ArrayList<>(writeRows(path, 100, 5));
      oldOrphans.addAll(writeRows(path, 200, 5));
      ageEveryDataFile();
      List<DataFile> youngOrphan = writeRows(path, 300, 5);
      List<List<Object>> rows = DeltaTableReader.readAll(path);

      VacuumResult dryRun = table.maintenance().vacuum(WEEK, true);

      assertThat(dryRun.deleted())
          .containsExactlyInAnyOrderElementsOf(oldOrphans.stream().map(DataFile::path).toList());
      assertThat(dataFiles()).hasSize(6);

      VacuumResult done = table.maintenance().vacuum(WEEK, false);

      assertThat(done.deleted()).containsExactlyInAnyOrderElementsOf(dryRun.deleted());
      assertThat(dataFiles())
          .hasSize(4)
          .anySatisfy(f -> assertThat(f.toString()).endsWith(youngOrphan.get(0).path()));
      assertThat(DeltaTableReader.readAll(path)).containsExactlyInAnyOrderElementsOf(rows);
    }
  }

  @Test
  void filesRemovedByAVersionWithinTheRetentionStayUntilThatVersionIsOlder() throws Exception {
    String path = dir.resolve("t").toUri().toString();
    try (DeltaTable table = create(path, Map.of("delta.enableDeletionVectors", "true"))) {
      List<DataFile> files = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        List<DataFile> written = writeRows(path, i * 10, 10);
        TestTables.committed(table.commit("app", i + 1, written));
        files.addAll(written);
      }
      FileDeletes deletes = new FileDeletes();
      deletes.add(FileIds.of(files.get(0).path()), 3);
      TestTables.committed(table.commit("app", 6, List.of(), deletes));
      long compacted =
          table
              .maintenance()
              .compact(new CompactionOptions(128L << 20, 5, 1L << 40, 0.2), "c")
              .version();
      ageEveryDataFile();
      List<List<Object>> rows = DeltaTableReader.readAll(path);
      assertThat(rows).hasSize(49);

      // The compaction's version is young: the files it removed, and their vector, stay.
      assertThat(table.maintenance().vacuum(WEEK, false).deleted()).isEmpty();
      assertThat(compacted).isEqualTo(7);

      // Once every version that removed them is older than the retention, they go.
      VacuumResult result = vacuumEightDaysLater(table);

      List<String> expected = new ArrayList<>(files.stream().map(DataFile::path).toList());
      assertThat(result.deleted()).containsAll(expected).hasSize(expected.size() + 1);
      assertThat(result.deleted()).anyMatch(p -> p.matches("deletion_vector_.*\\.bin"));
      assertThat(dataFiles())
          .singleElement()
          .satisfies(f -> assertThat(f.getFileName().toString()).startsWith("part-compacted-"));
      assertThat(DeltaTableReader.readAll(path)).containsExactlyInAnyOrderElementsOf(rows);
    }
  }

  @Test
  void aVectorOfALiveFileStaysHoweverOld() throws Exception {
    String path = dir.resolve("t").toUri().toString();
    try (DeltaTable table = create(path, Map.of("delta.enableDeletionVectors", "true"))) {
      List<DataFile> files = writeRows(path, 0, 10);
      TestTables.committed(table.commit("app", 1, files));
      FileDeletes deletes = new FileDeletes();
      deletes.add(FileIds.of(files.get(0).path()), 3);
      TestTables.committed(table.commit("app", 2, List.of(), deletes));
      assertThat(vacuumEightDaysLater(table).deleted()).isEmpty();
      assertThat(DeltaTableReader.readAll(path)).hasSize(9);
    }
  }

  @Test
  void logFilesOlderThanTheLogRetentionBeforeTheLatestCheckpointGo() throws Exception {
    String path = dir.resolve("t").toUri().toString();
    try (DeltaTable table = create(path, Map.of());
        DeltaCheckpoints checkpoints = table.checkpoints(4)) {
      for (long checkpoint = 1; checkpoint <= 9; checkpoint++) {
        TestTables.commitOneRow(TYPE, table, checkpoints, checkpoint);
      }
      long fortyDaysAgo = System.currentTimeMillis() - Duration.ofDays(40).toMillis();
      try (Stream<Path> log = Files.list(dir.resolve("t/_delta_log"))) {
        for (Path file : log.toList()) {
          Files.setLastModifiedTime(file, FileTime.fromMillis(fortyDaysAgo));
        }
      }
      List<List<Object>> rows = DeltaTableReader.readAll(path);

      VacuumResult result = table.maintenance().vacuum(WEEK, false);

      assertThat(result.logFilesDeleted()).isPositive();
      assertThat(Files.exists(dir.resolve("t/_delta_log").resolve(String.format("%020d.json", 0))))
          .isFalse();
      assertThat(DeltaTableReader.readAll(path)).containsExactlyInAnyOrderElementsOf(rows);
      assertThat(DeltaTableReader.version(path)).isEqualTo(9);
    }
  }

  @Test
  void aRetentionShorterThanTheTablesIsRefusedAndTheTablesOwnIsHonoured() throws Exception {
    String path = dir.resolve("t").toUri().toString();
    try (DeltaTable table = create(path, Map.of())) {
      assertThatThrownBy(() -> table.maintenance().vacuum(Duration.ofDays(1), false))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining(path.replaceAll("/$", ""))
          .hasMessageContaining("delta.deletedFileRetentionDuration")
          .hasMessageContaining("PT168H");
    }
    String shorter = dir.resolve("s").toUri().toString();
    try (DeltaTable table =
        create(shorter, Map.of("delta.deletedFileRetentionDuration", "interval 2 days"))) {
      assertThat(table.maintenance().vacuum(Duration.ofDays(2), true).deleted()).isEmpty();
      assertThatThrownBy(() -> table.maintenance().vacuum(Duration.ofHours(47), true))
          .hasMessageContaining("PT48H");
    }
  }

  @Test
  void aFileRemovedWithinTheRetentionStaysWhenOnlyTheCheckpointStillHoldsItsTombstone()
      throws Exception {
    String path = dir.resolve("t").toUri().toString();
    try (DeltaTable table = create(path, Map.of());
        DeltaCheckpoints checkpoints = table.checkpoints(4)) {
      List<DataFile> first = writeRows(path, 0, 10);
      TestTables.committed(table.commit("app", 1, first));
      TestTables.committed(table.commit("app", 2, writeRows(path, 10, 10)));
      table.maintenance().compact(new CompactionOptions(128L << 20, 2, 1L << 40, 0.2), "c");
      TestTables.commitOneRow(TYPE, table, checkpoints, 4);
      // The commits before the checkpoint are gone (log cleanup); the compaction's tombstones
      // live on in the checkpoint, young.
      for (long version = 0; version < 4; version++) {
        Files.delete(dir.resolve("t/_delta_log").resolve(String.format("%020d.json", version)));
      }
      ageEveryDataFile();

      assertThat(table.maintenance().vacuum(WEEK, true).deleted())
          .as("files the compaction removed a moment ago")
          .doesNotContain(first.get(0).path());
    }
  }

  @Test
  void orphansInAPartitionOfAColumnWhoseNameStartsWithAnUnderscoreGo() throws Exception {
    String path = dir.resolve("t").toUri().toString();
    RowType type =
        RowType.of(
            new LogicalType[] {new BigIntType(false), new BigIntType(false)},
            new String[] {"id", "_p"});
    try (DeltaTable table = TestTables.create(path, type, List.of("_p"), Map.of())) {
      TestTables.committed(
          table.commit(
              "app",
              1,
              TestTables.writeFiles(
                  path, type, List.of("_p"), List.of(GenericRowData.of(1L, 1L)))));
      List<DataFile> orphans =
          TestTables.writeFiles(path, type, List.of("_p"), List.of(GenericRowData.of(2L, 1L)));
      ageEveryDataFile();

      assertThat(orphans.get(0).path()).startsWith("_p=1/");
      assertThat(table.maintenance().vacuum(WEEK, true).deleted())
          .containsExactly(orphans.get(0).path());
    }
  }

  @Test
  void theFilesOfADeltaTableNestedUnderTheRootStay() throws Exception {
    String path = dir.resolve("t").toUri().toString();
    String nested = dir.resolve("t/nested").toUri().toString();
    try (DeltaTable table = create(path, Map.of());
        DeltaTable inner = create(nested, Map.of())) {
      TestTables.committed(table.commit("app", 1, writeRows(path, 0, 5)));
      TestTables.committed(inner.commit("app", 1, writeRows(nested, 0, 5)));
      ageEveryDataFile();

      assertThat(table.maintenance().vacuum(WEEK, true).deleted()).isEmpty();
    }
    assertThat(DeltaTableReader.readAll(nested)).hasSize(5);
  }

  /** A vacuum run eight days from now, with a week's retention. */
  private static VacuumResult vacuumEightDaysLater(DeltaTable table) {
    var conf = io.github.flinkdelta.core.storage.HadoopConfigurations.of(Map.of());
    return TableVacuum.run(
        table.name(),
        io.delta.kernel.defaults.engine.DefaultEngine.create(conf),
        table.reload(),
        conf,
        WEEK,
        false,
        System.currentTimeMillis() + Duration.ofDays(8).toMillis());
  }

  private DeltaTable create(String path, Map<String, String> properties) {
    return TestTables.create(path, TYPE, List.of(), properties);
  }

  private static List<DataFile> writeRows(String path, long from, long count) throws IOException {
    List<RowData> rows = new ArrayList<>();
    for (long i = from; i < from + count; i++) {
      rows.add(GenericRowData.of(i));
    }
    return TestTables.writeFiles(path, TYPE, List.of(), rows);
  }

  /** The table's data and deletion vector files on disk, log and hidden files aside. */
  private List<Path> dataFiles() throws IOException {
    try (Stream<Path> files = Files.walk(dir.resolve("t"))) {
      return files
          .filter(Files::isRegularFile)
          .filter(f -> !f.toString().contains("_delta_log"))
          .filter(f -> !f.getFileName().toString().startsWith("."))
          .toList();
    }
  }

  private void ageEveryDataFile() throws IOException {
    try (Stream<Path> files = Files.walk(dir.resolve("t"))) {
      files
          .filter(Files::isRegularFile)
          .filter(f -> !f.toString().contains("_delta_log"))
          .forEach(TableVacuumTest::age);
    }
  }

  private static void age(Path file) {
    try {
      Files.setLastModifiedTime(file, FileTime.fromMillis(EIGHT_DAYS_AGO));
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
