package io.github.flinkdelta.core.schema;

import io.delta.kernel.types.ArrayType;
import io.delta.kernel.types.DataType;
import io.delta.kernel.types.MapType;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.github.flinkdelta.core.types.DeltaTypes;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.types.logical.RowType;

/**
 * How the rows a sink receives differ from a table's schema. Columns are matched by name
 * (case-insensitively, as Delta does), in any order at the top level and in the table's order
 * within structs. A nullable column of the rows may feed a NOT NULL column of the table: nulls are
 * refused row by row.
 */
final class SchemaDifferences {

  private SchemaDifferences() {}

  /** Every way in which {@code rowType} differs from {@code tableSchema}; empty when they fit. */
  static List<String> between(StructType tableSchema, RowType rowType) {
    List<String> problems = new ArrayList<>();
    StructType query = DeltaTypes.toDeltaSchema(rowType);
    compareStructs("", tableSchema, query, problems, false);
    return problems;
  }

  private static void compareStructs(
      String prefix, StructType table, StructType query, List<String> problems, boolean ordered) {
    for (int i = 0; i < table.length(); i++) {
      StructField expected = table.at(i);
      String path = prefix + expected.getName();
      StructField actual = find(query, expected.getName());
      if (actual == null) {
        problems.add("column '" + path + "' " + describe(expected) + " is missing from the rows");
        continue;
      }
      if (ordered && (i >= query.length() || query.at(i) != actual)) {
        problems.add("nested column '" + path + "' is not at position " + i + " in the rows");
      }
      compareTypes(path, expected.getDataType(), actual.getDataType(), problems);
    }
    for (StructField actual : query.fields()) {
      if (find(table, actual.getName()) == null) {
        problems.add(
            "column '"
                + prefix
                + actual.getName()
                + "' "
                + describe(actual)
                + " of the rows is not in the table");
      }
    }
  }

  private static void compareTypes(
      String path, DataType expected, DataType actual, List<String> problems) {
    if (expected instanceof StructType table && actual instanceof StructType query) {
      compareStructs(path + ".", table, query, problems, true);
    } else if (expected instanceof ArrayType table && actual instanceof ArrayType query) {
      compareTypes(path + ".element", table.getElementType(), query.getElementType(), problems);
    } else if (expected instanceof MapType table && actual instanceof MapType query) {
      compareTypes(path + ".key", table.getKeyType(), query.getKeyType(), problems);
      compareTypes(path + ".value", table.getValueType(), query.getValueType(), problems);
    } else if (!expected.equivalent(actual)) {
      problems.add(
          "column '" + path + "' is " + expected + " in the table but " + actual + " in the rows");
    }
  }

  private static StructField find(StructType struct, String name) {
    for (StructField field : struct.fields()) {
      if (field.getName().equalsIgnoreCase(name)) {
        return field;
      }
    }
    return null;
  }

  private static String describe(StructField field) {
    return "(" + field.getDataType() + (field.isNullable() ? "" : " NOT NULL") + ")";
  }
}
