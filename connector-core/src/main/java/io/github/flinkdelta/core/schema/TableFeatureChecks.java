/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.schema;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.delta.kernel.Snapshot;
import io.delta.kernel.types.ArrayType;
import io.delta.kernel.types.DataType;
import io.delta.kernel.types.FieldMetadata;
import io.delta.kernel.types.MapType;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.delta.kernel.types.VariantType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;

/**
 * Refuses a table that uses a feature the sink cannot honour, before anything is written: CHECK
 * constraints, invariants, generated and identity columns and variant columns always, and column
 * defaults when the rows lack the defaulted column (it would be written as null). Collated string
 * columns are honoured: their values are stored as any string, and the collations RFC allows the
 * UTF-8 binary statistics the sink writes.
 *
 * <p>Features are found in the table's metadata, as the protocol makes them active: table
 * properties {@code delta.constraints.<name>} and column metadata. A feature the protocol lists but
 * the metadata does not use constrains no write.
 */
@Internal
public final class TableFeatureChecks {

  private static final String CONSTRAINT_PREFIX = "delta.constraints.";
  private static final String INVARIANTS = "delta.invariants";
  private static final String GENERATION_EXPRESSION = "delta.generationExpression";
  private static final String IDENTITY_PREFIX = "delta.identity.";
  private static final String IDENTITY_START = "delta.identity.start";
  private static final String IDENTITY_STEP = "delta.identity.step";
  private static final String DEFAULT = "CURRENT_DEFAULT";
  private static final ObjectMapper JSON = new ObjectMapper();

  private TableFeatureChecks() {}

  /**
   * Fails unless the sink can write rows of {@code rows} to the table of {@code snapshot} without
   * breaking one of its features.
   *
   * @param tableName the table, as messages name it
   * @throws IllegalArgumentException naming every feature in the way, the column or constraint it
   *     concerns, and what to do about it
   */
  public static void check(String tableName, Snapshot snapshot, RowType rows) {
    List<String> problems = problems(snapshot, rows);
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException(
          String.format(
              "Cannot write Delta table %s: it uses table features the sink does not honour: %s.",
              tableName, String.join("; ", problems)));
    }
  }

  /**
   * The features of the table of {@code snapshot} that writing rows of {@code rows} would break,
   * each naming the feature, the column or constraint it concerns, and what to do; empty when none.
   */
  public static List<String> problems(Snapshot snapshot, RowType rows) {
    List<String> problems = new ArrayList<>();
    constraints(snapshot.getTableProperties())
        .forEach(
            (name, expression) ->
                problems.add(
                    String.format(
                        "checkConstraints: CHECK constraint '%s' (%s) is not evaluated by the"
                            + " sink (drop it with Spark's ALTER TABLE <table> DROP CONSTRAINT %s,"
                            + " or write with an engine that enforces it, such as Delta Spark)",
                        name, expression, name)));
    checkStruct(snapshot.getSchema(), "", rows, problems);
    return problems;
  }

  /**
   * Checks each field of {@code struct}; {@code rows} is the matching part of the rows, or null.
   */
  private static void checkStruct(
      StructType struct, String prefix, LogicalType rows, List<String> problems) {
    for (StructField field : struct.fields()) {
      checkField(field, prefix + field.getName(), child(rows, field.getName()), problems);
    }
  }

  private static void checkField(
      StructField field, String path, LogicalType rows, List<String> problems) {
    FieldMetadata metadata = field.getMetadata();
    if (metadata.contains(INVARIANTS)) {
      problems.add(
          String.format(
              "invariants: column '%s' has the invariant %s, which the sink does not evaluate"
                  + " (write with an engine that enforces invariants, such as Delta Spark, or"
                  + " recreate the table without it)",
              path, invariantExpression(metadata.getString(INVARIANTS))));
    }
    if (metadata.contains(GENERATION_EXPRESSION)) {
      problems.add(
          String.format(
              "generatedColumns: column '%s' is generated as %s, which the sink neither computes"
                  + " nor checks (write with an engine that computes generated columns, such as"
                  + " Delta Spark, or recreate the table with '%s' as a plain column)",
              path, metadata.getString(GENERATION_EXPRESSION), path));
    }
    if (metadata.getEntries().keySet().stream().anyMatch(k -> k.startsWith(IDENTITY_PREFIX))) {
      problems.add(
          String.format(
              "identityColumns: column '%s' is an identity column (start %s, step %s), whose"
                  + " values and high-water mark the sink does not generate (write with an engine"
                  + " that generates identity values, such as Delta Spark, or recreate the table"
                  + " with '%s' as a plain column)",
              path, metadata.get(IDENTITY_START), metadata.get(IDENTITY_STEP), path));
    }
    if (metadata.contains(DEFAULT) && rows == null) {
      problems.add(
          String.format(
              "allowColumnDefaults: column '%s' has the default %s, but the rows have no column"
                  + " '%s', so it would be written as null (add the column to the rows, e.g. %s"
                  + " AS %s in the query, or drop the default with Spark's ALTER TABLE <table>"
                  + " ALTER COLUMN %s DROP DEFAULT)",
              path,
              metadata.getString(DEFAULT),
              path,
              metadata.getString(DEFAULT),
              field.getName(),
              path));
    }
    checkType(field.getDataType(), path, rows, problems);
  }

  private static void checkType(
      DataType type, String path, LogicalType rows, List<String> problems) {
    if (type instanceof VariantType) {
      problems.add(
          String.format(
              "variantType: column '%s' is of type variant, which the sink cannot write (write"
                  + " it with an engine that writes variant values, such as Delta Spark 4, or"
                  + " write to a table that holds the values as strings)",
              path));
    } else if (type instanceof StructType struct) {
      checkStruct(struct, path + ".", rows, problems);
    } else if (type instanceof ArrayType array) {
      LogicalType element =
          rows instanceof org.apache.flink.table.types.logical.ArrayType a
              ? a.getElementType()
              : null;
      checkType(array.getElementType(), path + ".element", element, problems);
    } else if (type instanceof MapType map) {
      org.apache.flink.table.types.logical.MapType flinkMap =
          rows instanceof org.apache.flink.table.types.logical.MapType m ? m : null;
      checkType(
          map.getKeyType(),
          path + ".key",
          flinkMap == null ? null : flinkMap.getKeyType(),
          problems);
      checkType(
          map.getValueType(),
          path + ".value",
          flinkMap == null ? null : flinkMap.getValueType(),
          problems);
    }
  }

  /** The field of row type {@code rows} named {@code name} in any case, or null. */
  private static LogicalType child(LogicalType rows, String name) {
    if (rows instanceof RowType row) {
      for (RowType.RowField field : row.getFields()) {
        if (field.getName().equalsIgnoreCase(name)) {
          return field.getType();
        }
      }
    }
    return null;
  }

  /** The SQL of an invariant, stored as {@code {"expression": {"expression": "<SQL>"}}}. */
  private static String invariantExpression(String json) {
    try {
      return JSON.readTree(json).path("expression").path("expression").asText(json);
    } catch (JsonProcessingException e) {
      return json;
    }
  }

  /** The table's CHECK constraints: expressions by name, in name order. */
  private static Map<String, String> constraints(Map<String, String> properties) {
    Map<String, String> constraints = new TreeMap<>();
    properties.forEach(
        (key, value) -> {
          if (key.startsWith(CONSTRAINT_PREFIX)) {
            constraints.put(key.substring(CONSTRAINT_PREFIX.length()), value);
          }
        });
    return constraints;
  }
}
