/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.delta.kernel.types.LongType;
import io.delta.kernel.types.StructType;
import io.github.flinkdelta.core.storage.HadoopConfigurations;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Dropping a path table deletes its directory, never another table inside it. */
class PathTableDropTest {

  private static final TableDefinition DEFINITION =
      new TableDefinition(new StructType().add("id", LongType.LONG), List.of(), Map.of());

  @TempDir Path root;
  private final Configuration conf = HadoopConfigurations.of(Map.of());

  @Test
  void aDroppedTableLeavesNoFileAndIsNotFoundAgain() throws Exception {
    PathTableLocator table = new PathTableLocator(root.resolve("t").toUri().toString());
    table.create(conf, DEFINITION);
    Files.writeString(root.resolve("t/part-0.parquet"), "data");

    table.drop(conf);

    assertThat(root.resolve("t")).doesNotExist();
    assertThat(table.find(conf)).isEmpty();
    table.drop(conf);
  }

  @Test
  void aTableWithAnotherTableInsideItsDirectoryIsNotDroppedAndNothingIsDeleted() throws Exception {
    String outerPath = root.resolve("db").toUri().toString();
    PathTableLocator outer = new PathTableLocator(outerPath);
    PathTableLocator inner = new PathTableLocator(root.resolve("db/orders").toUri().toString());
    outer.create(conf, DEFINITION);
    inner.create(conf, DEFINITION);
    Files.writeString(root.resolve("db/part-0.parquet"), "data");

    assertThatThrownBy(() -> outer.drop(conf))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("Cannot drop the Delta table at " + outerPath + ":")
        .hasMessageContaining("db/orders")
        .hasMessageContaining("Nothing was deleted");
    assertThat(outer.find(conf)).isPresent();
    assertThat(inner.find(conf)).isPresent();
    assertThat(root.resolve("db/part-0.parquet")).exists();
  }
}
