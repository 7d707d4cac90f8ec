package io.github.flinkdelta.core.parquet;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;

/**
 * Copies the fields a writer reads from an incoming row into a row of its own, which outlives
 * Flink's reuse of the memory behind the incoming one, and estimates the copy's heap size. Only
 * rows of scalar and nested-row columns are copied; rows with arrays or maps have no copier.
 */
final class RowCopier {

  /** Object header, field array and boxing of one copied row, roughly. */
  private static final long ROW_OVERHEAD_BYTES = 48;

  private static final long FIELD_BYTES = 24;

  private final int arity;
  private final int[] positions;
  private final RowData.FieldGetter[] getters;
  private final FieldCopy[] copies;

  private RowCopier(int arity, int[] positions, LogicalType[] types) {
    this.arity = arity;
    this.positions = positions;
    this.getters = new RowData.FieldGetter[positions.length];
    this.copies = new FieldCopy[positions.length];
    for (int i = 0; i < positions.length; i++) {
      getters[i] = RowData.createFieldGetter(types[i], positions[i]);
      copies[i] = fieldCopy(types[i]).orElseThrow();
    }
  }

  /** A copier of the fields a file layout reads, if every one of them can be copied. */
  static Optional<RowCopier> forLayout(FileLayout layout) {
    List<Integer> positions = new ArrayList<>();
    List<LogicalType> types = new ArrayList<>();
    int[] dataPositions = layout.dataPositions();
    for (int i = 0; i < dataPositions.length; i++) {
      positions.add(dataPositions[i]);
      types.add(layout.dataColumns().get(i).type());
    }
    for (PartitionColumn column : layout.partitionColumns()) {
      positions.add(column.position());
      types.add(column.type());
    }
    for (LogicalType type : types) {
      if (fieldCopy(type).isEmpty()) {
        return Optional.empty();
      }
    }
    int arity = positions.stream().mapToInt(Integer::intValue).max().orElse(-1) + 1;
    return Optional.of(
        new RowCopier(
            arity,
            positions.stream().mapToInt(Integer::intValue).toArray(),
            types.toArray(LogicalType[]::new)));
  }

  /** A copy of {@code row}'s read fields; other positions of the copy are null. */
  RowData copy(RowData row) {
    GenericRowData copy = new GenericRowData(row.getRowKind(), arity);
    for (int i = 0; i < positions.length; i++) {
      copy.setField(positions[i], copies[i].copy(getters[i].getFieldOrNull(row)));
    }
    return copy;
  }

  /** The heap a copy of {@code row} takes, estimated from its variable-length fields. */
  long sizeOf(RowData copy) {
    long size = ROW_OVERHEAD_BYTES + FIELD_BYTES * positions.length;
    for (int i = 0; i < positions.length; i++) {
      Object value = getters[i].getFieldOrNull(copy);
      if (value instanceof BinaryStringData string) {
        size += string.getSizeInBytes();
      } else if (value instanceof byte[] bytes) {
        size += bytes.length;
      } else if (value instanceof RowData nested) {
        size += ROW_OVERHEAD_BYTES + FIELD_BYTES * nested.getArity();
      }
    }
    return size;
  }

  private interface FieldCopy {
    Object copy(Object value);
  }

  private static Optional<FieldCopy> fieldCopy(LogicalType type) {
    switch (type.getTypeRoot()) {
      case CHAR:
      case VARCHAR:
        // toBytes() may hand out the string's own array; copy() never does.
        return Optional.of(v -> v == null ? null : ((BinaryStringData) v).copy());
      case BINARY:
      case VARBINARY:
        return Optional.of(v -> v == null ? null : ((byte[]) v).clone());
      case DECIMAL:
        return Optional.of(v -> v == null ? null : ((DecimalData) v).copy());
      case ROW:
        return nestedRow((RowType) type);
      case BOOLEAN:
      case TINYINT:
      case SMALLINT:
      case INTEGER:
      case BIGINT:
      case FLOAT:
      case DOUBLE:
      case DATE:
      case TIME_WITHOUT_TIME_ZONE:
      case TIMESTAMP_WITHOUT_TIME_ZONE:
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
        // Boxed primitives and TimestampData are immutable values.
        return Optional.of(v -> v);
      default:
        return Optional.empty();
    }
  }

  private static Optional<FieldCopy> nestedRow(RowType type) {
    int fields = type.getFieldCount();
    int[] positions = new int[fields];
    for (int i = 0; i < fields; i++) {
      positions[i] = i;
      if (fieldCopy(type.getTypeAt(i)).isEmpty()) {
        return Optional.empty();
      }
    }
    RowCopier nested =
        new RowCopier(fields, positions, type.getChildren().toArray(LogicalType[]::new));
    return Optional.of(v -> v == null ? null : nested.copy((RowData) v));
  }
}
