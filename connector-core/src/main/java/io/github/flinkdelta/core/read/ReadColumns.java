package io.github.flinkdelta.core.read;

import io.delta.kernel.Snapshot;
import io.delta.kernel.internal.types.DataTypeJsonSerDe;
import io.delta.kernel.internal.util.ColumnMapping;
import io.delta.kernel.internal.util.ColumnMapping.ColumnMappingMode;
import io.delta.kernel.types.DataType;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.github.flinkdelta.core.types.DeltaTypes;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.types.logical.RowType;

/**
 * The columns a reader takes from a table's files, in the order it emits them, resolved against the
 * table's schema: which are read from Parquet (under their physical names and field ids) and which
 * are partition values.
 *
 * <p>The physical schema comes from Kernel's internal {@link ColumnMapping}, the rule Kernel's own
 * scans follow, and the schema travels as Kernel's JSON ({@link DataTypeJsonSerDe}, internal too):
 * Kernel's public API offers neither. {@code DeltaSourceITCase} reads column-mapped tables and
 * fails when either changes.
 */
@Internal
public final class ReadColumns implements Serializable {

  private static final long serialVersionUID = 1L;

  private final String tableName;
  private final String tableRoot;
  private final String schemaJson;
  private final String columnMappingMode;
  private final List<String> partitionColumns;
  private final List<String> columns;

  private transient Resolved resolved;

  private ReadColumns(
      String tableName,
      String tableRoot,
      String schemaJson,
      String columnMappingMode,
      List<String> partitionColumns,
      List<String> columns) {
    this.tableName = tableName;
    this.tableRoot = tableRoot;
    this.schemaJson = schemaJson;
    this.columnMappingMode = columnMappingMode;
    this.partitionColumns = List.copyOf(partitionColumns);
    this.columns = List.copyOf(columns);
  }

  /**
   * The columns {@code names} of the table as {@code snapshot} has it (every column when {@code
   * names} is empty), matched case-insensitively as Delta does.
   *
   * @throws IllegalArgumentException naming the table and every column it does not have
   */
  public static ReadColumns of(String tableName, Snapshot snapshot, List<String> names) {
    StructType schema = snapshot.getSchema();
    List<String> resolvedNames = new ArrayList<>();
    List<String> missing = new ArrayList<>();
    for (String name : names.isEmpty() ? schema.fieldNames() : names) {
      StructField field = field(schema, name);
      if (field == null) {
        missing.add(name);
      } else {
        resolvedNames.add(field.getName());
      }
    }
    if (!missing.isEmpty()) {
      throw new IllegalArgumentException(
          String.format(
              "Delta table %s has no column %s; its columns are %s",
              tableName, String.join(", ", missing), schema.fieldNames()));
    }
    return new ReadColumns(
        tableName,
        snapshot.getPath(),
        schema.toJson(),
        ColumnMapping.getColumnMappingMode(snapshot.getTableProperties()).name(),
        snapshot.getPartitionColumnNames(),
        resolvedNames);
  }

  /** The table as messages name it. */
  public String tableName() {
    return tableName;
  }

  /** The table's root location. */
  public String tableRoot() {
    return tableRoot;
  }

  /** The names of the columns read, in the order rows hold them. */
  public List<String> names() {
    return columns;
  }

  /** The type of the rows read. */
  public RowType rowType() {
    return DeltaTypes.toFlinkRowType(resolved().logical);
  }

  /** The table's schema these columns were resolved against. */
  public StructType tableSchema() {
    return resolved().table;
  }

  /** These columns resolved against another version's schema of the same table. */
  public ReadColumns against(Snapshot snapshot) {
    return of(tableName, snapshot, columns);
  }

  Resolved resolved() {
    if (resolved == null) {
      resolved = new Resolved(DataTypeJsonSerDe.deserializeStructType(schemaJson));
    }
    return resolved;
  }

  /** The field of {@code schema} named {@code name}, matched case-insensitively, or null. */
  static StructField field(StructType schema, String name) {
    for (StructField field : schema.fields()) {
      if (field.getName().toLowerCase(Locale.ROOT).equals(name.toLowerCase(Locale.ROOT))) {
        return field;
      }
    }
    return null;
  }

  /** The columns as a reader uses them. */
  final class Resolved {
    final StructType table;
    final StructType logical;

    /**
     * The Parquet columns read: the data columns under their physical names, strings as binary
     * ({@link ColumnValues}).
     */
    final StructType physical;

    /** For each column read, its index in {@link #physical}, or -1 for a partition column. */
    final int[] physicalIndex;

    /** For each column read, the key of its partition value, or null for a data column. */
    final String[] partitionKey;

    final DataType[] types;

    /** For each column read, how its values are read from the Parquet columns. */
    final ColumnValues[] values;

    private Resolved(StructType table) {
      this.table = table;
      ColumnMappingMode mode = ColumnMappingMode.valueOf(columnMappingMode);
      List<StructField> fields = new ArrayList<>();
      StructType data = new StructType();
      physicalIndex = new int[columns.size()];
      partitionKey = new String[columns.size()];
      types = new DataType[columns.size()];
      for (int i = 0; i < columns.size(); i++) {
        StructField field = Objects.requireNonNull(field(table, columns.get(i)), columns.get(i));
        fields.add(field);
        types[i] = field.getDataType();
        if (isPartitionColumn(field.getName())) {
          physicalIndex[i] = -1;
          partitionKey[i] =
              mode == ColumnMappingMode.NONE
                  ? field.getName()
                  : ColumnMapping.getPhysicalName(field);
        } else {
          physicalIndex[i] = data.length();
          data = data.add(field);
        }
      }
      this.logical = new StructType(fields);
      this.physical =
          data.length() == 0
              ? new StructType().add(StructField.DEFAULT_ROW_INDEX_COLUMN)
              : ColumnValues.readSchema(ColumnMapping.convertToPhysicalSchema(data, table, mode));
      this.values = new ColumnValues[types.length];
      for (int i = 0; i < types.length; i++) {
        values[i] = ColumnValues.of(types[i]);
      }
    }

    private boolean isPartitionColumn(String name) {
      return partitionColumns.stream().anyMatch(p -> p.equalsIgnoreCase(name));
    }
  }
}
