/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.testkit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.unitycatalog.client.model.ColumnInfo;
import io.unitycatalog.client.model.ColumnTypeName;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A table's columns as Unity Catalog OSS v0.6.0 keeps them: one list of {@link ColumnInfo}, the
 * only store of a table's schema, which {@code GET /tables/{name}} lists and from which the UC
 * Delta API's load-table answer rebuilds its Delta {@code columns} (each column's {@code
 * type_json}) and {@code partition-columns} (each column's {@code partition_index}).
 *
 * <p>Delta columns sent to the UC Delta API (table creation, {@code set-columns}) become column
 * infos as the real server projects them: {@code type_name}, {@code type_text} as a catalog string
 * ({@code int}, {@code bigint}, {@code decimal(10,2)}, {@code array<string>}), {@code type_json} as
 * the field in Delta's schema JSON (camelCase keys), {@code comment} from the field's metadata
 * {@code comment}, and {@code partition_index}. Columns sent to the legacy API are kept as sent.
 */
final class CatalogColumns {

  /** Keys of array and map types on the UC Delta API's wire and, in order, in Delta's JSON. */
  private static final Map<String, String> WIRE_TO_DELTA_KEYS =
      Map.of(
          "element-type", "elementType",
          "contains-null", "containsNull",
          "key-type", "keyType",
          "value-type", "valueType",
          "value-contains-null", "valueContainsNull");

  private static final Map<String, String> DELTA_TO_WIRE_KEYS = inverse(WIRE_TO_DELTA_KEYS);

  private static final Map<String, String> PRIMITIVE_TYPE_TEXT =
      Map.of("integer", "int", "long", "bigint", "short", "smallint", "byte", "tinyint");

  private CatalogColumns() {}

  /**
   * The column infos of Delta columns sent to the UC Delta API ({@code {"type":"struct",
   * "fields":[...]}}, wire form).
   *
   * @throws UnityCatalogException 400 when a partition column is not among the columns
   */
  static List<ColumnInfo> fromDelta(
      JsonNode struct, List<String> partitionColumns, ObjectMapper mapper) {
    List<ColumnInfo> columns = new ArrayList<>();
    JsonNode fields = struct == null ? null : struct.get("fields");
    if (fields != null) {
      for (JsonNode field : fields) {
        JsonNode type = field.get("type");
        ColumnInfo column =
            new ColumnInfo()
                .name(field.path("name").asText())
                .nullable(field.path("nullable").asBoolean(false))
                .position(columns.size())
                .typeJson(write(mapper, convertKeys(field, WIRE_TO_DELTA_KEYS)))
                .typeName(typeName(type))
                .typeText(typeText(type));
        JsonNode comment = field.path("metadata").get("comment");
        if (comment != null && comment.isTextual()) {
          column.comment(comment.asText());
        }
        columns.add(column);
      }
    }
    return withPartitionColumns(columns, partitionColumns);
  }

  /**
   * {@code columns} with partition indexes for {@code partitionColumns}, in their order.
   *
   * @throws UnityCatalogException 400 when a partition column is not among the columns
   */
  static List<ColumnInfo> withPartitionColumns(
      List<ColumnInfo> columns, List<String> partitionColumns) {
    List<ColumnInfo> stamped = new ArrayList<>();
    for (ColumnInfo column : columns) {
      int index = partitionColumns.indexOf(column.getName());
      stamped.add(copy(column).partitionIndex(index < 0 ? null : index));
    }
    for (String partition : partitionColumns) {
      if (stamped.stream().noneMatch(c -> c.getName().equals(partition))) {
        throw UnityCatalogException.badRequest(
            "partition-columns references unknown column: " + partition);
      }
    }
    return stamped;
  }

  /**
   * The UC Delta API's {@code columns} for these column infos (wire form); no fields when a column
   * has no readable {@code type_json}, as the real server answers then.
   */
  static JsonNode toDelta(List<ColumnInfo> columns, ObjectMapper mapper) {
    ObjectNode struct = mapper.createObjectNode().put("type", "struct");
    ArrayNode fields = struct.putArray("fields");
    for (ColumnInfo column : columns) {
      try {
        fields.add(convertKeys(mapper.readTree(column.getTypeJson()), DELTA_TO_WIRE_KEYS));
      } catch (JsonProcessingException | IllegalArgumentException | NullPointerException e) {
        fields.removeAll();
        break;
      }
    }
    return struct;
  }

  /** The names of the partition columns, by partition index. */
  static List<String> partitionColumns(List<ColumnInfo> columns) {
    return columns.stream()
        .filter(c -> c.getPartitionIndex() != null)
        .sorted(Comparator.comparingInt(ColumnInfo::getPartitionIndex))
        .map(ColumnInfo::getName)
        .toList();
  }

  private static ColumnTypeName typeName(JsonNode type) {
    if (type == null) {
      throw UnityCatalogException.badRequest("A column needs a type");
    }
    if (type.isObject()) {
      return switch (type.path("type").asText()) {
        case "array" -> ColumnTypeName.ARRAY;
        case "map" -> ColumnTypeName.MAP;
        case "struct" -> ColumnTypeName.STRUCT;
        default -> throw unsupported(type);
      };
    }
    String name = type.asText();
    if (name.startsWith("decimal")) {
      return ColumnTypeName.DECIMAL;
    }
    return switch (name) {
      case "boolean" -> ColumnTypeName.BOOLEAN;
      case "byte" -> ColumnTypeName.BYTE;
      case "short" -> ColumnTypeName.SHORT;
      case "integer" -> ColumnTypeName.INT;
      case "long" -> ColumnTypeName.LONG;
      case "float" -> ColumnTypeName.FLOAT;
      case "double" -> ColumnTypeName.DOUBLE;
      case "date" -> ColumnTypeName.DATE;
      case "timestamp" -> ColumnTypeName.TIMESTAMP;
      case "timestamp_ntz" -> ColumnTypeName.TIMESTAMP_NTZ;
      case "string" -> ColumnTypeName.STRING;
      case "binary" -> ColumnTypeName.BINARY;
      case "variant" -> ColumnTypeName.VARIANT;
      default -> throw unsupported(type);
    };
  }

  private static String typeText(JsonNode type) {
    if (!type.isObject()) {
      String name = type.asText().replace(" ", "");
      return PRIMITIVE_TYPE_TEXT.getOrDefault(name, name);
    }
    switch (type.path("type").asText()) {
      case "array":
        return "array<" + typeText(type.get("element-type")) + ">";
      case "map":
        return "map<"
            + typeText(type.get("key-type"))
            + ","
            + typeText(type.get("value-type"))
            + ">";
      default:
        List<String> fields = new ArrayList<>();
        type.path("fields")
            .forEach(f -> fields.add(f.path("name").asText() + ":" + typeText(f.get("type"))));
        return "struct<" + String.join(",", fields) + ">";
    }
  }

  /** A copy of a type or field tree with the keys of array and map types renamed. */
  private static JsonNode convertKeys(JsonNode node, Map<String, String> renames) {
    if (node.isArray()) {
      ArrayNode copy = ((ArrayNode) node).arrayNode();
      node.forEach(element -> copy.add(convertKeys(element, renames)));
      return copy;
    }
    if (!node.isObject()) {
      return node;
    }
    ObjectNode copy = ((ObjectNode) node).objectNode();
    node.fields()
        .forEachRemaining(
            entry ->
                copy.set(
                    renames.getOrDefault(entry.getKey(), entry.getKey()),
                    // Field metadata is free-form: its keys are never renamed.
                    entry.getKey().equals("metadata")
                        ? entry.getValue()
                        : convertKeys(entry.getValue(), renames)));
    return copy;
  }

  private static Map<String, String> inverse(Map<String, String> map) {
    Map<String, String> inverse = new HashMap<>();
    map.forEach((key, value) -> inverse.put(value, key));
    return inverse;
  }

  private static ColumnInfo copy(ColumnInfo column) {
    return new ColumnInfo()
        .name(column.getName())
        .typeText(column.getTypeText())
        .typeJson(column.getTypeJson())
        .typeName(column.getTypeName())
        .typePrecision(column.getTypePrecision())
        .typeScale(column.getTypeScale())
        .typeIntervalType(column.getTypeIntervalType())
        .position(column.getPosition())
        .comment(column.getComment())
        .nullable(column.getNullable())
        .partitionIndex(column.getPartitionIndex());
  }

  private static String write(ObjectMapper mapper, JsonNode node) {
    try {
      return mapper.writeValueAsString(Objects.requireNonNull(node));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private static UnityCatalogException unsupported(JsonNode type) {
    return UnityCatalogException.badRequest("Unsupported Delta type: " + type);
  }
}
