/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.uc.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.unitycatalog.client.model.ColumnInfo;
import io.unitycatalog.client.model.ColumnTypeName;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A Delta schema as Unity Catalog lists a table's columns: one {@link ColumnInfo} per top-level
 * field, projected as Unity Catalog OSS 0.6.0 projects the columns a UC Delta API client sends, so
 * that both commit APIs leave the same columns: {@code type_json} is the field in Delta's schema
 * JSON, {@code type_text} a catalog string ({@code int}, {@code bigint}, {@code decimal(10,2)},
 * {@code array<string>}), {@code comment} the field's metadata {@code comment}, and partition
 * columns carry their {@code partition_index}.
 */
final class CatalogColumns {

  private static final ObjectMapper JSON = new ObjectMapper();

  private static final Map<String, String> TYPE_TEXT =
      Map.of("integer", "int", "long", "bigint", "short", "smallint", "byte", "tinyint");

  private static final Map<String, ColumnTypeName> TYPE_NAMES =
      Map.ofEntries(
          Map.entry("boolean", ColumnTypeName.BOOLEAN),
          Map.entry("byte", ColumnTypeName.BYTE),
          Map.entry("short", ColumnTypeName.SHORT),
          Map.entry("integer", ColumnTypeName.INT),
          Map.entry("long", ColumnTypeName.LONG),
          Map.entry("float", ColumnTypeName.FLOAT),
          Map.entry("double", ColumnTypeName.DOUBLE),
          Map.entry("date", ColumnTypeName.DATE),
          Map.entry("timestamp", ColumnTypeName.TIMESTAMP),
          Map.entry("timestamp_ntz", ColumnTypeName.TIMESTAMP_NTZ),
          Map.entry("string", ColumnTypeName.STRING),
          Map.entry("binary", ColumnTypeName.BINARY),
          Map.entry("variant", ColumnTypeName.VARIANT),
          Map.entry("array", ColumnTypeName.ARRAY),
          Map.entry("map", ColumnTypeName.MAP),
          Map.entry("struct", ColumnTypeName.STRUCT));

  private CatalogColumns() {}

  /**
   * The columns of a Delta schema.
   *
   * @param schemaJson the schema as Delta's log holds it ({@code {"type":"struct","fields":[...]}})
   * @throws IllegalArgumentException when it is not a Delta schema
   */
  static List<ColumnInfo> of(String schemaJson, List<String> partitionColumns) {
    JsonNode fields;
    try {
      fields = JSON.readTree(schemaJson).get("fields");
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("Not a Delta schema: " + schemaJson, e);
    }
    if (fields == null || !fields.isArray()) {
      throw new IllegalArgumentException("Not a Delta schema: " + schemaJson);
    }
    List<ColumnInfo> columns = new ArrayList<>();
    for (JsonNode field : fields) {
      String name = field.path("name").asText();
      JsonNode comment = field.path("metadata").path("comment");
      int partitionIndex = partitionColumns.indexOf(name);
      columns.add(
          new ColumnInfo()
              .name(name)
              .nullable(field.path("nullable").asBoolean())
              .position(columns.size())
              .typeJson(field.toString())
              .typeName(typeName(field.path("type")))
              .typeText(typeText(field.path("type")))
              .comment(comment.isTextual() ? comment.asText() : null)
              .partitionIndex(partitionIndex < 0 ? null : partitionIndex));
    }
    return columns;
  }

  private static ColumnTypeName typeName(JsonNode type) {
    String name = type.isObject() ? type.path("type").asText() : type.asText();
    if (name.startsWith("decimal")) {
      return ColumnTypeName.DECIMAL;
    }
    ColumnTypeName typeName = TYPE_NAMES.get(name);
    if (typeName == null) {
      throw new IllegalArgumentException("Unity Catalog has no column type for Delta type " + type);
    }
    return typeName;
  }

  private static String typeText(JsonNode type) {
    if (!type.isObject()) {
      String name = type.asText().replace(" ", "");
      return TYPE_TEXT.getOrDefault(name, name);
    }
    switch (type.path("type").asText()) {
      case "array":
        return "array<" + typeText(type.path("elementType")) + ">";
      case "map":
        return "map<"
            + typeText(type.path("keyType"))
            + ","
            + typeText(type.path("valueType"))
            + ">";
      default:
        List<String> fields = new ArrayList<>();
        for (JsonNode field : type.path("fields")) {
          fields.add(field.path("name").asText() + ":" + typeText(field.path("type")));
        }
        return "struct<" + String.join(",", fields) + ">";
    }
  }
}
