/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.delta.kernel.types.StringType;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.github.flinkdelta.core.storage.HadoopConfigurations;
import io.github.flinkdelta.core.testing.CanonicalRows;
import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.core.testing.TestTables;
import io.github.flinkdelta.core.write.DataFile;
import io.github.flinkdelta.core.write.FileWriteOptions;
import io.github.flinkdelta.core.write.PartitionedDataWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.schema.MessageType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Tables with column mapping get physical column names (and, in id mode, field ids) in files. */
class ColumnMappingTest {

  private static final RowType INNER =
      RowType.of(new LogicalType[] {new IntType()}, new String[] {"x"});
  private static final RowType TYPE =
      RowType.of(
          new LogicalType[] {new BigIntType(), new VarCharType(50), new IntType(), INNER},
          new String[] {"id", "name", "part", "inner"});

  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(strings = {"name", "id"})
  void writesPhysicalNamesAndFieldIdsAndReadsBackByLogicalNames(String mode) throws Exception {
    String path = dir.resolve(mode).toUri().toString();
    var conf = HadoopConfigurations.of(Map.of());
    DeltaTable table =
        TestTables.create(
            path, conf, TYPE, List.of("part"), Map.of("delta.columnMapping.mode", mode));
    List<RowData> rows =
        List.of(
            GenericRowData.of(1L, StringData.fromString("a"), 7, GenericRowData.of(10)),
            GenericRowData.of(2L, null, 8, null));
    List<DataFile> files;
    try (PartitionedDataWriter writer =
        new PartitionedDataWriter(
            table.layoutFor(TYPE, List.of("part")),
            conf,
            path,
            FileWriteOptions.from(new Configuration()),
            "cm")) {
      for (RowData row : rows) {
        writer.write(row);
      }
      files = writer.flush().toList();
    }
    table.commit("app", 1, files);

    assertThat(DeltaTableReader.readAll(path))
        .containsExactlyInAnyOrderElementsOf(
            rows.stream().map(r -> CanonicalRows.of(r, TYPE)).toList());

    MessageType schema = footerSchema(dir.resolve(mode), files.get(0).path());
    assertThat(schema.getFields()).noneMatch(f -> f.getName().equals("name"));
    assertThat(schema.getFields()).allMatch(f -> f.getName().startsWith("col-"));
    // PROTOCOL.md asks for field ids in both modes, in nested fields too.
    assertThat(schema.getFields()).allMatch(f -> f.getId() != null);
    org.apache.parquet.schema.GroupType inner =
        schema.getFields().stream()
            .filter(f -> !f.isPrimitive())
            .findFirst()
            .orElseThrow()
            .asGroupType();
    assertThat(inner.getFields()).isNotEmpty().allMatch(f -> f.getId() != null);
    // Statistics are keyed by the physical names too.
    assertThat(files.get(0).statsJson()).contains("col-").doesNotContain("\"name\"");
  }

  @Test
  void aColumnAddedAgainAfterADropGetsAPhysicalNameAndIdOfItsOwn() throws Exception {
    String path = dir.resolve("re-added").toUri().toString();
    DeltaTable table =
        TestTables.create(path, TYPE, List.of(), Map.of("delta.columnMapping.mode", "id"));
    table.metadata().addColumns(List.of(new StructField("note", StringType.STRING, true)));
    StructField first = table.snapshot().getSchema().get("note");
    table
        .metadata()
        .evolveSchema(
            new StructType(
                table.snapshot().getSchema().fields().stream()
                    .filter(f -> !f.getName().equals("note"))
                    .toList()),
            false);
    table.metadata().addColumns(List.of(new StructField("note", StringType.STRING, true)));
    StructField again = table.snapshot().getSchema().get("note");

    // Files written before the drop hold the first column's values under its physical name.
    assertThat(physicalName(first)).startsWith("col-").isNotEqualTo(physicalName(again));
    assertThat(physicalName(again)).startsWith("col-");
    assertThat(again.getMetadata().getLong("delta.columnMapping.id"))
        .isGreaterThan(first.getMetadata().getLong("delta.columnMapping.id"));
  }

  private static String physicalName(StructField field) {
    return field.getMetadata().getString("delta.columnMapping.physicalName");
  }

  private static MessageType footerSchema(Path tableDir, String relative) throws Exception {
    Path file = tableDir.resolve(relative);
    try (ParquetFileReader reader =
        ParquetFileReader.open(
            HadoopInputFile.fromPath(
                new org.apache.hadoop.fs.Path(file.toUri()), HadoopConfigurations.of(Map.of())))) {
      return reader.getFooter().getFileMetaData().getSchema();
    }
  }
}
