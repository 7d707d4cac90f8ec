/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.table;

import io.github.flinkdelta.sink.dynamic.DynamicRecord;
import io.github.flinkdelta.sink.dynamic.DynamicRecordGenerator;
import io.github.flinkdelta.sink.dynamic.DynamicTable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.utils.ProjectedRowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * Routes the rows of a SQL table in dynamic mode: each row goes to the table its name column names
 * (through a template), written without that column. All tables share the SQL table's other
 * columns, partition columns and primary key.
 */
final class ColumnRoutedRows implements DynamicRecordGenerator<RowData> {

  private static final long serialVersionUID = 1L;

  /** Tables whose shape is kept at most; beyond it, the least recently used is made again. */
  private static final int MAX_CACHED = 10_000;

  private final String sqlTable;
  private final int nameColumn;
  private final String nameColumnName;
  private final String template;
  private final RowType rowType;
  private final int[] kept;
  private final List<String> partitionColumns;
  private final List<String> primaryKey;
  private transient Map<String, DynamicTable> tables;

  /**
   * @param sqlTable the SQL table, in messages
   * @param rowType the SQL table's rows, name column included
   * @param nameColumn the column that names each row's table
   * @param primaryKey the SQL table's key; the name column is left out of each table's key
   */
  ColumnRoutedRows(
      String sqlTable,
      RowType rowType,
      String nameColumn,
      String template,
      List<String> partitionColumns,
      List<String> primaryKey) {
    this.sqlTable = sqlTable;
    this.nameColumn = rowType.getFieldIndex(nameColumn);
    this.nameColumnName = nameColumn;
    this.template = template;
    List<RowType.RowField> fields = new ArrayList<>(rowType.getFields());
    fields.remove(this.nameColumn);
    this.rowType = new RowType(rowType.isNullable(), fields);
    this.kept = new int[fields.size()];
    for (int i = 0, field = 0; i < rowType.getFieldCount(); i++) {
      if (i != this.nameColumn) {
        kept[field++] = i;
      }
    }
    this.partitionColumns = List.copyOf(partitionColumns);
    this.primaryKey = primaryKey.stream().filter(c -> !c.equals(nameColumn)).toList();
  }

  @Override
  public void generate(RowData row, Output out) throws Exception {
    if (row.isNullAt(nameColumn)) {
      throw new IllegalArgumentException(
          String.format(
              "A row of %s names no table: its column '%s' is null. Give every row a table name,"
                  + " or filter such rows out.",
              sqlTable, nameColumnName));
    }
    String name = template.replace("{value}", row.getString(nameColumn).toString());
    out.collect(new DynamicRecord(tableOf(name), ProjectedRowData.from(kept).replaceRow(row)));
  }

  private DynamicTable tableOf(String name) {
    if (tables == null) {
      tables = new LinkedHashMap<>(16, 0.75f, true);
    }
    DynamicTable table = tables.get(name);
    if (table == null) {
      table =
          DynamicTable.of(name, rowType)
              .withPartitionColumns(partitionColumns.toArray(String[]::new))
              .withPrimaryKey(primaryKey.toArray(String[]::new));
      tables.put(name, table);
      if (tables.size() > MAX_CACHED) {
        tables.remove(tables.keySet().iterator().next());
      }
    }
    return table;
  }
}
