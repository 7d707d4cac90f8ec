/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.delta.kernel.types.StructField;
import io.github.flinkdelta.core.commit.CommitOutcome;
import io.github.flinkdelta.core.schema.SchemaChangedException;
import io.github.flinkdelta.core.storage.HadoopConfigurations;
import io.github.flinkdelta.core.testing.CanonicalRows;
import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.core.testing.TestTables;
import io.github.flinkdelta.core.write.DataFile;
import io.github.flinkdelta.core.write.FileLayout;
import io.github.flinkdelta.core.write.FileWriteOptions;
import io.github.flinkdelta.core.write.PartitionedDataWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tables that want their partition columns in the data files get them there (Iceberg compatibility,
 * {@code materializePartitionColumns}, {@code delta.writePartitionColumnsToParquet}), with Parquet
 * field ids on every field Iceberg readers resolve by id, array elements included; a job whose
 * files lack them, because another writer asked for them after it was built, is refused at commit.
 */
class PartitionColumnsInFilesTest {

  private static final RowType TYPE =
      RowType.of(
          new LogicalType[] {
            new BigIntType(false), new VarCharType(10), new ArrayType(new IntType())
          },
          new String[] {"id", "region", "scores"});

  private static final String TABLE = "t";

  @TempDir Path dir;

  @Test
  void anIcebergCompatTableGetsPartitionValuesAndFieldIdsOfNestedFieldsInItsFiles()
      throws Exception {
    String path = dir.resolve(TABLE).toUri().toString();
    Map<String, String> properties =
        Map.of("delta.columnMapping.mode", "name", "delta.enableIcebergCompatV2", "true");
    try (DeltaTable table = TestTables.create(path, TYPE, List.of("region"), properties)) {
      List<RowData> rows = List.of(row(1, "eu", 1, 2), row(2, "us", 3));
      List<DataFile> files = write(path, table.layoutFor(TYPE, List.of("region")), rows);
      TestTables.committed(table.commit("app", 1, files));

      StructField region = field(table, "region");
      StructField scores = field(table, "scores");
      MessageType footer = footer(files.get(0));
      Type regionInFile = footer.getType(physicalName(region));
      assertThat(regionInFile.getId().intValue()).isEqualTo(fieldId(region));
      // Nested ids: Iceberg resolves the array's element by the id the table assigns it.
      GroupType list = footer.getType(physicalName(scores)).asGroupType();
      Type element = list.getType(0).asGroupType().getType(0);
      long elementId =
          scores
              .getMetadata()
              .getMetadata("delta.columnMapping.nested.ids")
              .getLong(physicalName(scores) + ".element");
      assertThat((long) element.getId().intValue()).isEqualTo(elementId);

      assertThat(DeltaTableReader.readAll(path))
          .containsExactlyInAnyOrderElementsOf(
              rows.stream().map(r -> CanonicalRows.of(r, TYPE)).toList());
    }
  }

  @Test
  void aTableThatAsksForPartitionColumnsInItsFilesGetsThem() throws Exception {
    String path = dir.resolve(TABLE).toUri().toString();
    try (DeltaTable table =
        TestTables.create(
            path,
            TYPE,
            List.of("region"),
            Map.of("delta.feature.materializePartitionColumns", "supported"))) {
      List<DataFile> files =
          write(path, table.layoutFor(TYPE, List.of("region")), List.of(row(1, "eu", 1)));
      TestTables.committed(table.commit("app", 1, files));

      assertThat(footer(files.get(0)).containsField("region")).isTrue();
      assertThat(DeltaTableReader.readAll(path))
          .containsExactly(CanonicalRows.of(row(1, "eu", 1), TYPE));
    }
  }

  @Test
  void filesWithoutPartitionColumnsAreRefusedOnceAnotherWriterAsksForThem() throws Exception {
    String path = dir.resolve(TABLE).toUri().toString();
    try (DeltaTable sink = TestTables.create(path, TYPE, List.of("region"), Map.of())) {
      FileLayout layout = sink.layoutFor(TYPE, List.of("region"));
      sink.checkCommitsAgainst(layout);
      List<DataFile> files = write(path, layout, List.of(row(1, "eu", 1)));
      assertThat(footer(files.get(0)).containsField("region")).isFalse();
      try (DeltaTable other = TestTables.open(path)) {
        other
            .metadata()
            .updateProperties(Map.of("delta.feature.materializePartitionColumns", "supported"));
      }
      long before = DeltaTableReader.version(path);

      CommitOutcome outcome = sink.commit("app", 1, files);

      assertThat(((CommitOutcome.Conflicted) outcome).cause())
          .isInstanceOf(SchemaChangedException.class)
          .hasMessageContaining("asks for its partition columns in the data files")
          .hasMessageContaining("rebuild the job");
      assertThat(DeltaTableReader.version(path)).isEqualTo(before);
    }
  }

  private static GenericRowData row(long id, String region, Integer... scores) {
    return GenericRowData.of(id, StringData.fromString(region), new GenericArrayData(scores));
  }

  private static StructField field(DeltaTable table, String name) {
    return table.snapshot().getSchema().get(name);
  }

  private static String physicalName(StructField field) {
    return field.getMetadata().getString("delta.columnMapping.physicalName");
  }

  private static long fieldId(StructField field) {
    return field.getMetadata().getLong("delta.columnMapping.id");
  }

  private static List<DataFile> write(String path, FileLayout layout, List<RowData> rows)
      throws Exception {
    try (PartitionedDataWriter writer =
        new PartitionedDataWriter(
            layout,
            HadoopConfigurations.of(Map.of()),
            path,
            FileWriteOptions.from(new Configuration()),
            "w")) {
      for (RowData row : rows) {
        writer.write(row);
      }
      return writer.flush().toList();
    }
  }

  private MessageType footer(DataFile file) throws Exception {
    try (ParquetFileReader reader =
        ParquetFileReader.open(
            HadoopInputFile.fromPath(
                new org.apache.hadoop.fs.Path(dir.resolve(TABLE).resolve(file.path()).toUri()),
                HadoopConfigurations.of(Map.of())))) {
      return reader.getFooter().getFileMetaData().getSchema();
    }
  }
}
