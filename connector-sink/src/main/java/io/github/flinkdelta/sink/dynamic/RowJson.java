/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.dynamic;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.Base64;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.MultisetType;
import org.apache.flink.table.types.logical.RowType;

/**
 * A row as a JSON object, by its row type: what a dead-lettered record keeps of its row. Numbers
 * and booleans stay JSON numbers and booleans; dates, times and timestamps are ISO-8601 text
 * (timestamps with a local time zone as instants); binary values are Base64; arrays are arrays,
 * maps are arrays of {@code {"key": ..., "value": ...}} (their keys need not be text), rows are
 * objects.
 */
final class RowJson {

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private final ObjectMapper mapper = new ObjectMapper();

  String of(RowData row, RowType type) {
    try {
      return mapper.writeValueAsString(object(row, type));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("Cannot write a row of " + type + " as JSON", e);
    }
  }

  private static ObjectNode object(RowData row, RowType type) {
    ObjectNode node = NODES.objectNode();
    for (int i = 0; i < type.getFieldCount(); i++) {
      LogicalType field = type.getTypeAt(i);
      node.set(
          type.getFieldNames().get(i),
          value(RowData.createFieldGetter(field, i).getFieldOrNull(row), field));
    }
    return node;
  }

  private static JsonNode value(Object value, LogicalType type) {
    if (value == null) {
      return NODES.nullNode();
    }
    return switch (type.getTypeRoot()) {
      case BOOLEAN -> NODES.booleanNode((Boolean) value);
      case TINYINT -> NODES.numberNode((Byte) value);
      case SMALLINT -> NODES.numberNode((Short) value);
      case INTEGER, INTERVAL_YEAR_MONTH -> NODES.numberNode((Integer) value);
      case BIGINT, INTERVAL_DAY_TIME -> NODES.numberNode((Long) value);
      case FLOAT -> NODES.numberNode((Float) value);
      case DOUBLE -> NODES.numberNode((Double) value);
      case DECIMAL -> NODES.numberNode(((DecimalData) value).toBigDecimal());
      case DATE -> NODES.textNode(LocalDate.ofEpochDay((Integer) value).toString());
      case TIME_WITHOUT_TIME_ZONE ->
          NODES.textNode(LocalTime.ofNanoOfDay((Integer) value * 1_000_000L).toString());
      case TIMESTAMP_WITHOUT_TIME_ZONE ->
          NODES.textNode(((TimestampData) value).toLocalDateTime().toString());
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE ->
          NODES.textNode(((TimestampData) value).toInstant().toString());
      case BINARY, VARBINARY -> NODES.textNode(Base64.getEncoder().encodeToString((byte[]) value));
      case ARRAY -> array((ArrayData) value, ((ArrayType) type).getElementType());
      case MAP ->
          map((MapData) value, ((MapType) type).getKeyType(), ((MapType) type).getValueType());
      case MULTISET -> map((MapData) value, ((MultisetType) type).getElementType(), null);
      case ROW -> object((RowData) value, (RowType) type);
      default -> NODES.textNode(value.toString());
    };
  }

  private static ArrayNode array(ArrayData array, LogicalType element) {
    ArrayData.ElementGetter getter = ArrayData.createElementGetter(element);
    ArrayNode node = NODES.arrayNode(array.size());
    for (int i = 0; i < array.size(); i++) {
      node.add(value(getter.getElementOrNull(array, i), element));
    }
    return node;
  }

  /** A map's entries; a multiset's ({@code valueType} null) with their counts as values. */
  private static ArrayNode map(MapData map, LogicalType keyType, LogicalType valueType) {
    ArrayData keys = map.keyArray();
    ArrayData values = map.valueArray();
    ArrayData.ElementGetter keyGetter = ArrayData.createElementGetter(keyType);
    ArrayNode node = NODES.arrayNode(map.size());
    for (int i = 0; i < map.size(); i++) {
      ObjectNode entry = NODES.objectNode();
      entry.set("key", value(keyGetter.getElementOrNull(keys, i), keyType));
      entry.set(
          "value",
          valueType == null
              ? NODES.numberNode(values.getInt(i))
              : value(
                  ArrayData.createElementGetter(valueType).getElementOrNull(values, i), valueType));
      node.add(entry);
    }
    return node;
  }
}
