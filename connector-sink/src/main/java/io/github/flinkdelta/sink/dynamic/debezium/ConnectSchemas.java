/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.dynamic.debezium;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.BooleanType;
import org.apache.flink.table.types.logical.DateType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.FloatType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.SmallIntType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.TinyIntType;
import org.apache.flink.table.types.logical.VarBinaryType;
import org.apache.flink.table.types.logical.VarCharType;

/**
 * Kafka Connect schemas, as Debezium's JSON converter writes them beside each payload, turned into
 * Flink types, and their JSON values into Flink's internal data. Debezium's and Connect's semantic
 * types are honoured: dates, timestamps (milli-, micro-, nanoseconds; zoned), decimals (as bytes or
 * as numbers). Times of day, which Delta cannot hold, become strings such as {@code 10:15:30.5}.
 */
final class ConnectSchemas {

  private ConnectSchemas() {}

  /** A Connect struct schema compiled once: its row type and the converter of its values. */
  record Struct(RowType rowType, FieldReader[] fields) {

    /** The row a payload struct holds. */
    GenericRowData read(JsonNode struct) {
      GenericRowData row = new GenericRowData(fields.length);
      List<String> names = rowType.getFieldNames();
      for (int i = 0; i < fields.length; i++) {
        JsonNode value = struct.get(names.get(i));
        row.setField(i, value == null || value.isNull() ? null : fields[i].read(value));
      }
      return row;
    }
  }

  /** Reads one JSON value into Flink's internal data of its field's type. */
  @FunctionalInterface
  interface FieldReader {
    Object read(JsonNode value);
  }

  /** A field's type and reader. */
  private record Field(LogicalType type, FieldReader reader) {}

  /**
   * The struct schema {@code schema} ({@code "type": "struct"}, with {@code fields}).
   *
   * @param what the schema's owner, in messages
   */
  static Struct struct(JsonNode schema, String what) {
    List<RowType.RowField> fields = new ArrayList<>();
    List<FieldReader> readers = new ArrayList<>();
    for (JsonNode field : schema.path("fields")) {
      String name = field.path("field").asText();
      Field compiled = field(field, what + "." + name);
      fields.add(new RowType.RowField(name, compiled.type()));
      readers.add(compiled.reader());
    }
    if (fields.isEmpty()) {
      throw new IllegalArgumentException(
          "Debezium schema of " + what + " has no fields: " + abbreviate(schema));
    }
    return new Struct(new RowType(fields), readers.toArray(new FieldReader[0]));
  }

  private static Field field(JsonNode schema, String what) {
    boolean nullable = schema.path("optional").asBoolean(true);
    Field field = typed(schema, what);
    return new Field(field.type().copy(nullable), field.reader());
  }

  private static Field typed(JsonNode schema, String what) {
    String type = schema.path("type").asText();
    String name = schema.path("name").asText("");
    switch (name) {
      case "org.apache.kafka.connect.data.Date", "io.debezium.time.Date":
        return new Field(new DateType(), JsonNode::asInt);
      case "org.apache.kafka.connect.data.Time", "io.debezium.time.Time":
        return new Field(string(), v -> time(v.asLong() * 1_000_000));
      case "io.debezium.time.MicroTime":
        return new Field(string(), v -> time(v.asLong() * 1_000));
      case "io.debezium.time.NanoTime":
        return new Field(string(), v -> time(v.asLong()));
      case "org.apache.kafka.connect.data.Timestamp", "io.debezium.time.Timestamp":
        return new Field(new TimestampType(3), v -> TimestampData.fromEpochMillis(v.asLong()));
      case "io.debezium.time.MicroTimestamp":
        return new Field(
            new TimestampType(6),
            v -> {
              long micros = v.asLong();
              return TimestampData.fromEpochMillis(
                  Math.floorDiv(micros, 1000), (int) Math.floorMod(micros, 1000) * 1000);
            });
      case "io.debezium.time.NanoTimestamp":
        return new Field(
            new TimestampType(6),
            v -> {
              long nanos = v.asLong();
              return TimestampData.fromEpochMillis(
                  Math.floorDiv(nanos, 1_000_000), (int) Math.floorMod(nanos, 1_000_000));
            });
      case "io.debezium.time.ZonedTimestamp":
        return new Field(
            new LocalZonedTimestampType(6),
            v -> TimestampData.fromInstant(OffsetDateTime.parse(v.asText()).toInstant()));
      case "org.apache.kafka.connect.data.Decimal":
        return decimal(schema);
      case "io.debezium.data.VariableScaleDecimal":
        return new Field(
            string(),
            v ->
                StringData.fromString(
                    new BigDecimal(
                            new BigInteger(Base64.getDecoder().decode(v.path("value").asText())),
                            v.path("scale").asInt())
                        .toPlainString()));
      default:
        break;
    }
    switch (type) {
      case "int8":
        return new Field(new TinyIntType(), v -> (byte) v.asInt());
      case "int16":
        return new Field(new SmallIntType(), v -> (short) v.asInt());
      case "int32":
        return new Field(new IntType(), JsonNode::asInt);
      case "int64":
        return new Field(new BigIntType(), JsonNode::asLong);
      case "float32":
        return new Field(new FloatType(), v -> (float) v.asDouble());
      case "float64":
        return new Field(new DoubleType(), JsonNode::asDouble);
      case "boolean":
        return new Field(new BooleanType(), JsonNode::asBoolean);
      case "string":
        return new Field(string(), v -> StringData.fromString(v.asText()));
      case "bytes":
        return new Field(
            new VarBinaryType(VarBinaryType.MAX_LENGTH),
            v -> Base64.getDecoder().decode(v.asText()));
      case "struct":
        Struct struct = struct(schema, what);
        return new Field(struct.rowType(), struct::read);
      case "array":
        Field element = field(schema.path("items"), what + ".element");
        return new Field(
            new ArrayType(element.type()),
            v -> {
              Object[] values = new Object[v.size()];
              for (int i = 0; i < values.length; i++) {
                JsonNode item = v.get(i);
                values[i] = item.isNull() ? null : element.reader().read(item);
              }
              return new GenericArrayData(values);
            });
      case "map":
        Field value = field(schema.path("values"), what + ".value");
        return new Field(
            new MapType(string(), value.type()),
            v -> {
              Map<Object, Object> entries = new HashMap<>();
              for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> entry = it.next();
                entries.put(
                    StringData.fromString(entry.getKey()),
                    entry.getValue().isNull() ? null : value.reader().read(entry.getValue()));
              }
              return new GenericMapData(entries);
            });
      default:
        throw new IllegalArgumentException(
            String.format(
                "Debezium field %s has type '%s', which the Delta sink does not know: %s",
                what, type, abbreviate(schema)));
    }
  }

  private static Field decimal(JsonNode schema) {
    JsonNode parameters = schema.path("parameters");
    int scale = parameters.path("scale").asInt(0);
    int precision =
        Math.min(38, Math.max(scale, parameters.path("connect.decimal.precision").asInt(38)));
    return new Field(
        new DecimalType(precision, scale),
        v -> {
          BigDecimal decimal =
              v.isNumber()
                  ? v.decimalValue().setScale(scale)
                  : new BigDecimal(new BigInteger(Base64.getDecoder().decode(v.asText())), scale);
          return DecimalData.fromBigDecimal(decimal, precision, scale);
        });
  }

  private static VarCharType string() {
    return new VarCharType(VarCharType.MAX_LENGTH);
  }

  private static StringData time(long nanosOfDay) {
    return StringData.fromString(LocalTime.ofNanoOfDay(nanosOfDay).toString());
  }

  private static String abbreviate(JsonNode node) {
    String text = node.toString();
    return text.length() <= 200 ? text : text.substring(0, 200) + "...";
  }
}
