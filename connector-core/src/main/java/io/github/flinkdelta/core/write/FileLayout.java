/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.write;

import io.github.flinkdelta.core.parquet.DataColumns;
import io.github.flinkdelta.core.parquet.ParquetColumn;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * How the rows of one table are laid out in its data files: the columns stored in the file (under
 * their physical names) and the columns that become partition values. Built once from the table's
 * snapshot and shipped to every writer.
 */
@Internal
public final class FileLayout implements Serializable {

  private static final long serialVersionUID = 1L;

  private final DataColumns data;
  private final List<PartitionColumn> partitionColumns;
  private final RowReshaper reshaper;

  /**
   * @param data the columns stored in the file
   * @param partitionColumns the partition columns, in the table's partition order
   */
  public FileLayout(DataColumns data, List<PartitionColumn> partitionColumns) {
    this(data, partitionColumns, null);
  }

  /**
   * @param data the columns stored in the file, read from rows as {@code reshaper} makes them
   * @param partitionColumns the partition columns, in the table's partition order, read from the
   *     rows as they arrive
   * @param reshaper turns each row into the table's shape before its data columns are read, or null
   *     to read them from the row as it arrives
   */
  public FileLayout(
      DataColumns data, List<PartitionColumn> partitionColumns, RowReshaper reshaper) {
    this.data = Objects.requireNonNull(data, "data");
    this.partitionColumns = List.copyOf(partitionColumns);
    this.reshaper = reshaper;
  }

  /** The row whose data columns a file stores: {@code row} itself, or reshaped for the table. */
  public RowData dataRow(RowData row) {
    return reshaper == null ? row : reshaper.reshape(row);
  }

  /** The table, as error messages name it. */
  public String tableName() {
    return data.tableName();
  }

  /** The columns stored in the file, and where the incoming row holds them. */
  public DataColumns data() {
    return data;
  }

  public List<ParquetColumn> dataColumns() {
    return data.columns();
  }

  public List<PartitionColumn> partitionColumns() {
    return partitionColumns;
  }

  /** The columns the job writes, data and partition columns, as a row type of their names. */
  public RowType rowType() {
    List<RowType.RowField> fields = new ArrayList<>();
    for (ParquetColumn column : data.columns()) {
      fields.add(new RowType.RowField(column.logicalName(), column.type()));
    }
    for (PartitionColumn column : partitionColumns) {
      fields.add(new RowType.RowField(column.name(), column.type()));
    }
    return new RowType(fields);
  }

  /**
   * This layout for a sink keyed by {@code keyColumns}: a key column that is a partition column
   * refuses empty values, which Delta would store as a null key.
   */
  public FileLayout withKey(List<String> keyColumns) {
    List<PartitionColumn> columns = new ArrayList<>();
    for (PartitionColumn column : partitionColumns) {
      boolean key = keyColumns.stream().anyMatch(k -> k.equalsIgnoreCase(column.name()));
      columns.add(
          new PartitionColumn(
              column.name(),
              column.directoryName(),
              column.position(),
              column.type(),
              column.refusesEmpty() || key));
    }
    return new FileLayout(data, columns, reshaper);
  }

  /** Whether the data files hold the partition columns too (materialized, after the data). */
  public boolean materializesPartitions() {
    if (partitionColumns.isEmpty()) {
      return false;
    }
    String first = partitionColumns.get(0).directoryName();
    return data.columns().stream().anyMatch(column -> column.physicalName().equals(first));
  }

  public boolean isPartitioned() {
    return !partitionColumns.isEmpty();
  }
}
