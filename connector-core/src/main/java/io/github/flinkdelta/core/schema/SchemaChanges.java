package io.github.flinkdelta.core.schema;

import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import java.util.List;
import org.apache.flink.annotation.Internal;

/** Changes to a table's schema, checked against what Delta allows before anything is committed. */
@Internal
public final class SchemaChanges {

  private SchemaChanges() {}

  /**
   * {@code schema} with {@code columns} added at the end.
   *
   * @param tableName the table, as messages name it
   * @throws IllegalArgumentException when a column is NOT NULL (existing rows have no value for it)
   *     or the table has a column of that name already
   */
  public static StructType withAddedColumns(
      String tableName, StructType schema, List<StructField> columns) {
    for (StructField column : columns) {
      if (!column.isNullable()) {
        throw new IllegalArgumentException(
            "Cannot add column '"
                + column.getName()
                + "' to "
                + tableName
                + ": an added column must be nullable, since existing rows have no value for it.");
      }
      if (schema.fieldNames().stream().anyMatch(n -> n.equalsIgnoreCase(column.getName()))) {
        throw new IllegalArgumentException(
            "Table " + tableName + " already has a column '" + column.getName() + "'.");
      }
      schema = schema.add(column);
    }
    return schema;
  }
}
