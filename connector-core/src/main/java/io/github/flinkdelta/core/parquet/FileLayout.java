package io.github.flinkdelta.core.parquet;

import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.github.flinkdelta.core.types.DeltaTypes;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.parquet.schema.MessageType;

/**
 * How the rows of one table are laid out in its data files: which incoming fields go into the file
 * and under which physical names, and which become partition values. Built once from the table's
 * snapshot and shipped to every writer.
 */
public final class FileLayout implements Serializable {

  private static final long serialVersionUID = 1L;

  private final String tableName;
  private final List<ParquetColumn> dataColumns;
  private final int[] dataPositions;
  private final List<PartitionColumn> partitionColumns;

  private transient MessageType messageType;
  private transient StructType physicalSchema;

  /**
   * @param tableName the table, as error messages name it
   * @param dataColumns the columns stored in the file, in file order
   * @param dataPositions for each data column, its position in the incoming row
   * @param partitionColumns the partition columns, in the table's partition order
   */
  public FileLayout(
      String tableName,
      List<ParquetColumn> dataColumns,
      int[] dataPositions,
      List<PartitionColumn> partitionColumns) {
    if (dataColumns.size() != dataPositions.length) {
      throw new IllegalArgumentException("one position per data column is needed");
    }
    this.tableName = Objects.requireNonNull(tableName, "tableName");
    this.dataColumns = List.copyOf(dataColumns);
    this.dataPositions = dataPositions.clone();
    this.partitionColumns = List.copyOf(partitionColumns);
  }

  public String tableName() {
    return tableName;
  }

  public List<ParquetColumn> dataColumns() {
    return dataColumns;
  }

  int[] dataPositions() {
    return dataPositions;
  }

  public List<PartitionColumn> partitionColumns() {
    return partitionColumns;
  }

  public boolean isPartitioned() {
    return !partitionColumns.isEmpty();
  }

  MessageType messageType() {
    if (messageType == null) {
      messageType = ParquetSchemas.messageType(dataColumns);
    }
    return messageType;
  }

  /** The Delta schema of the file's columns under their physical names, as statistics use it. */
  StructType physicalSchema() {
    if (physicalSchema == null) {
      List<StructField> fields = new ArrayList<>(dataColumns.size());
      for (ParquetColumn column : dataColumns) {
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
    StructType single =
        DeltaTypes.toDeltaSchema(RowType.of(new LogicalType[] {type}, new String[] {"c"}));
    return new StructField(column.physicalName(), single.at(0).getDataType(), column.nullable());
  }
}
