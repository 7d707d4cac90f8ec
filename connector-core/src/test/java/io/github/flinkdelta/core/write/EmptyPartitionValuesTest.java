/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkdelta.core.storage.HadoopConfigurations;
import io.github.flinkdelta.core.table.DeltaTable;
import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.core.testing.TestTables;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Delta stores an empty partition value as null (PROTOCOL.md, partition value serialization), so an
 * empty string in a partition column reads back as null: a NOT NULL partition column, and a
 * partition column of the primary key, refuse it, naming the table and the column; a nullable one
 * takes it as the null Delta reads it as, written so that every reader agrees (as Spark does).
 */
class EmptyPartitionValuesTest {

  private static final RowType TYPE =
      RowType.of(
          new LogicalType[] {
            new BigIntType(false), new VarCharType(false, 10), new VarCharType(true, 10)
          },
          new String[] {"id", "region", "channel"});

  @TempDir Path dir;

  @Test
  void anEmptyValueInANotNullPartitionColumnIsRefused() throws Exception {
    try (PartitionedDataWriter writer = writer("not-null", List.of("region"), List.of())) {
      assertThatThrownBy(() -> writer.write(row(1, "", "web")))
          .isInstanceOf(EmptyPartitionValueException.class)
          .hasMessageContaining("not-null: partition column 'region'")
          .hasMessageContaining("NULLIF");
    }
  }

  @Test
  void anEmptyValueInAPartitionColumnOfTheKeyIsRefused() throws Exception {
    try (PartitionedDataWriter writer =
        writer("key", List.of("channel"), List.of("id", "channel"))) {
      assertThatThrownBy(() -> writer.write(row(1, "eu", "")))
          .isInstanceOf(EmptyPartitionValueException.class)
          .hasMessageContaining("partition column 'channel'");
    }
  }

  @Test
  void anEmptyValueInANullablePartitionColumnReadsBackAsNull() throws Exception {
    String path = dir.resolve("nullable").toUri().toString();
    try (PartitionedDataWriter writer = writer("nullable", List.of("channel"), List.of())) {
      writer.write(row(1, "eu", ""));
      try (DeltaTable table = TestTables.open(path)) {
        table.commit("app", 1, writer.flush().toList());
      }
    }
    assertThat(DeltaTableReader.readAll(path)).containsExactly(Arrays.asList(1L, "eu", null));
  }

  private PartitionedDataWriter writer(String name, List<String> partitions, List<String> key) {
    String path = dir.resolve(name).toUri().toString();
    var conf = HadoopConfigurations.of(Map.of());
    FileLayout layout;
    try (DeltaTable table = TestTables.create(path, conf, TYPE, partitions, Map.of())) {
      layout = table.layoutFor(TYPE, partitions);
    }
    return new PartitionedDataWriter(
        key.isEmpty() ? layout : layout.withKey(key),
        conf,
        path,
        FileWriteOptions.from(new org.apache.flink.configuration.Configuration()),
        name);
  }

  private static GenericRowData row(long id, String region, String channel) {
    return GenericRowData.of(id, StringData.fromString(region), StringData.fromString(channel));
  }
}
