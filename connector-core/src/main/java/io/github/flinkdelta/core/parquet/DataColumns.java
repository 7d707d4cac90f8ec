/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.parquet;

import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.github.flinkdelta.core.types.DeltaTypes;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.parquet.schema.MessageType;

/**
 * The columns a data file stores, in file order, and where each is read from in the incoming row.
 * Partition columns are not among them: their values live in the table's log, not in the file.
 */
@Internal
public final class DataColumns implements Serializable {

  private static final long serialVersionUID = 1L;

  private final String tableName;
  private final List<ParquetColumn> columns;
  private final int[] positions;

  private transient MessageType messageType;
  private transient StructType physicalSchema;

  /**
   * @param tableName the table, as error messages name it
   * @param columns the columns stored in the file, in file order
   * @param positions for each column, its position in the incoming row
   */
  public DataColumns(String tableName, List<ParquetColumn> columns, int[] positions) {
    if (columns.size() != positions.length) {
      throw new IllegalArgumentException("one position per data column is needed");
    }
    this.tableName = Objects.requireNonNull(tableName, "tableName");
    this.columns = List.copyOf(columns);
    this.positions = positions.clone();
  }

  /** The table, as error messages name it. */
  public String tableName() {
    return tableName;
  }

  public List<ParquetColumn> columns() {
    return columns;
  }

  /** Where column {@code index} sits in the incoming row. */
  public int position(int index) {
    return positions[index];
  }

  int[] positions() {
    return positions;
  }

  MessageType messageType() {
    if (messageType == null) {
      messageType = ParquetSchemas.messageType(columns);
    }
    return messageType;
  }

  /** The Delta schema of the columns under their physical names, as statistics use it. */
  StructType physicalSchema() {
    if (physicalSchema == null) {
      List<StructField> fields = new ArrayList<>(columns.size());
      for (ParquetColumn column : columns) {
        fields.add(physicalField(column));
      }
      physicalSchema = new StructType(fields);
    }
    return physicalSchema;
  }

  private static StructField physicalField(ParquetColumn column) {
    LogicalType type = column.type();
    if (type instanceof RowType) {
      List<StructField> fields = new ArrayList<>();
      for (ParquetColumn child : column.children()) {
        fields.add(physicalField(child));
      }
      return new StructField(column.physicalName(), new StructType(fields), column.nullable());
    }
    return new StructField(column.physicalName(), DeltaTypes.toDeltaType(type), column.nullable());
  }
}
