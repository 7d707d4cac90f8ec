/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkdelta.core.commit.CommitOutcome;
import io.github.flinkdelta.core.schema.FormerColumns;
import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.core.testing.TestTables;
import io.github.flinkdelta.core.write.DataFile;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Renames and drops of columns through column mapping: files written before keep reading right, a
 * change sent again changes nothing, rows carrying former names are matched by them, and a commit
 * of files written before the change follows it when asked to.
 */
class ColumnChangesTest {

  private static final RowType OLD =
      RowType.of(
          new LogicalType[] {
            new BigIntType(false), new VarCharType(VarCharType.MAX_LENGTH), new IntType()
          },
          new String[] {"id", "old_name", "gone"});

  @TempDir Path dir;

  @Test
  void filesWrittenBeforeARenameAndADropCommitAfterThemAndReadUnderTheNewSchema() throws Exception {
    String path = dir.resolve("t").toUri().toString();
    TestTables.create(path, OLD, List.of(), Map.of("delta.columnMapping.mode", "name")).close();
    List<DataFile> before =
        TestTables.writeFiles(
            path, OLD, List.of(), List.of(GenericRowData.of(1L, StringData.fromString("a"), 7)));
    try (DeltaTable writer = TestTables.open(path);
        DeltaTable changer = TestTables.open(path)) {
      writer.followSchemaChanges();
      assertThat(changer.metadata().renameColumn("old_name", "new_name", false)).isEqualTo(1);
      assertThat(changer.metadata().dropColumn("gone", false)).isEqualTo(2);
      // Sent again, as after a failure: the table shows them applied.
      assertThat(changer.metadata().renameColumn("old_name", "new_name", false)).isEqualTo(-1);
      assertThat(changer.metadata().dropColumn("gone", false)).isEqualTo(-1);

      assertThat(writer.commit("app", 1, before)).isInstanceOf(CommitOutcome.Committed.class);
    }
    assertThat(DeltaTableReader.readAll(path)).containsExactly(List.of(1L, "a"));
    try (DeltaTable table = TestTables.open(path)) {
      assertThat(table.snapshot().getSchema().fieldNames()).containsExactly("id", "new_name");
      // Rows of the old shape fit under the names the table has now, the dropped field left out.
      FormerColumns.Renaming renaming =
          table.metadata().formerColumns().renaming(OLD, table.snapshot().getSchema());
      assertThat(renaming.rowType().getFieldNames()).containsExactly("id", "new_name");
      assertThat(renaming.keptPositions()).containsExactly(0, 1);
      // A new column that takes a former name is a new column.
      RowType reused = append(table.snapshot().getSchema().fieldNames(), "old_name");
      assertThat(
              table
                  .metadata()
                  .formerColumns()
                  .renaming(reused, table.snapshot().getSchema())
                  .rowType())
          .isEqualTo(reused);
    }
  }

  @Test
  void withoutFollowingSchemaChangesTheCommitOfOlderFilesIsAConflict() throws Exception {
    String path = dir.resolve("strict").toUri().toString();
    TestTables.create(path, OLD, List.of(), Map.of("delta.columnMapping.mode", "name")).close();
    List<DataFile> before =
        TestTables.writeFiles(
            path, OLD, List.of(), List.of(GenericRowData.of(1L, StringData.fromString("a"), 7)));
    try (DeltaTable writer = TestTables.open(path);
        DeltaTable changer = TestTables.open(path)) {
      changer.metadata().renameColumn("old_name", "new_name", false);
      assertThat(writer.commit("app", 1, before)).isInstanceOf(CommitOutcome.Conflicted.class);
    }
  }

  @Test
  void renamesAndDropsThatDeltaCannotKeepAreRefusedNamingTheColumn() {
    String path = dir.resolve("refused").toUri().toString();
    try (DeltaTable table =
        TestTables.create(path, OLD, List.of("gone"), Map.of("delta.columnMapping.mode", "name"))) {
      assertThatThrownBy(() -> table.metadata().dropColumn("gone", false))
          .hasMessageContaining("'gone'")
          .hasMessageContaining("partition column");
      assertThatThrownBy(() -> table.metadata().renameColumn("nope", "other", false))
          .hasMessageContaining("no such column");
      assertThatThrownBy(() -> table.metadata().renameColumn("old_name", "id", false))
          .hasMessageContaining("has a column 'id' already");
    }
  }

  @Test
  void renamesAndDropsOfPrimaryKeyColumnsAreRefusedNamingTheKey() {
    String path = dir.resolve("keyed").toUri().toString();
    try (DeltaTable table =
        TestTables.create(
            path,
            OLD,
            List.of(),
            Map.of("delta.columnMapping.mode", "name", "flink.primary-key", "id"))) {
      assertThatThrownBy(() -> table.metadata().renameColumn("id", "key", false))
          .hasMessageContaining("'id'")
          .hasMessageContaining("primary key");
      assertThatThrownBy(() -> table.metadata().dropColumn("id", false))
          .hasMessageContaining("primary key");
    }
  }

  private static RowType append(List<String> names, String name) {
    List<RowType.RowField> fields = new ArrayList<>();
    for (String existing : names) {
      fields.add(
          new RowType.RowField(
              existing,
              existing.equals("id")
                  ? new BigIntType(false)
                  : new VarCharType(VarCharType.MAX_LENGTH)));
    }
    fields.add(new RowType.RowField(name, new IntType()));
    return new RowType(fields);
  }
}
