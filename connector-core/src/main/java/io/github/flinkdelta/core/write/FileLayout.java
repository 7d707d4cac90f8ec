package io.github.flinkdelta.core.write;

import io.github.flinkdelta.core.parquet.DataColumns;
import io.github.flinkdelta.core.parquet.ParquetColumn;
import java.io.Serializable;
import java.util.List;
import java.util.Objects;
import org.apache.flink.annotation.Internal;

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

  /**
   * @param data the columns stored in the file
   * @param partitionColumns the partition columns, in the table's partition order
   */
  public FileLayout(DataColumns data, List<PartitionColumn> partitionColumns) {
    this.data = Objects.requireNonNull(data, "data");
    this.partitionColumns = List.copyOf(partitionColumns);
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

  public boolean isPartitioned() {
    return !partitionColumns.isEmpty();
  }
}
