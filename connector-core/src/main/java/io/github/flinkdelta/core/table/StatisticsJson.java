package io.github.flinkdelta.core.table;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.delta.kernel.expressions.Column;
import io.delta.kernel.expressions.Literal;
import io.delta.kernel.statistics.DataFileStatistics;
import io.delta.kernel.types.BinaryType;
import io.delta.kernel.types.BooleanType;
import io.delta.kernel.types.ByteType;
import io.delta.kernel.types.DataType;
import io.delta.kernel.types.DateType;
import io.delta.kernel.types.DecimalType;
import io.delta.kernel.types.DoubleType;
import io.delta.kernel.types.FloatType;
import io.delta.kernel.types.IntegerType;
import io.delta.kernel.types.LongType;
import io.delta.kernel.types.ShortType;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.delta.kernel.types.TimestampNTZType;
import io.delta.kernel.types.TimestampType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;

/**
 * Reads the statistics JSON a data file carries back into Kernel's {@link DataFileStatistics}.
 *
 * <p>Kernel's own {@code DataFileStatistics.deserializeFromJson} reads decimals through doubles,
 * which corrupts wide decimals; this reader keeps every decimal digit.
 */
final class StatisticsJson {

  private static final ObjectMapper MAPPER =
      new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

  private StatisticsJson() {}

  static DataFileStatistics parse(String json, StructType physicalSchema) {
    JsonNode root;
    try {
      root = MAPPER.readTree(json);
    } catch (IOException e) {
      throw new UncheckedIOException("Malformed data file statistics: " + json, e);
    }
    Map<Column, Literal> min = new HashMap<>();
    Map<Column, Literal> max = new HashMap<>();
    Map<Column, Long> nulls = new HashMap<>();
    Column root0 = new Column(new String[0]);
    readValues(root.get("minValues"), physicalSchema, root0, min);
    readValues(root.get("maxValues"), physicalSchema, root0, max);
    readCounts(root.get("nullCount"), physicalSchema, root0, nulls);
    return new DataFileStatistics(
        root.path("numRecords").asLong(), min, max, nulls, Optional.empty());
  }

  private static void readValues(
      JsonNode node, StructType schema, Column parent, Map<Column, Literal> into) {
    if (node == null || !node.isObject()) {
      return;
    }
    for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> entry = it.next();
      StructField field = field(schema, entry.getKey());
      if (field == null || entry.getValue().isNull()) {
        continue;
      }
      Column path = parent.appendNestedField(field.getName());
      if (field.getDataType() instanceof StructType struct) {
        readValues(entry.getValue(), struct, path, into);
      } else {
        into.put(path, literal(field.getDataType(), entry.getValue()));
      }
    }
  }

  private static void readCounts(
      JsonNode node, StructType schema, Column parent, Map<Column, Long> into) {
    if (node == null || !node.isObject()) {
      return;
    }
    for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> entry = it.next();
      StructField field = field(schema, entry.getKey());
      if (field == null) {
        continue;
      }
      Column path = parent.appendNestedField(field.getName());
      if (field.getDataType() instanceof StructType struct && entry.getValue().isObject()) {
        readCounts(entry.getValue(), struct, path, into);
      } else if (entry.getValue().isNumber()) {
        into.put(path, entry.getValue().asLong());
      }
    }
  }

  private static Literal literal(DataType type, JsonNode value) {
    if (type instanceof BooleanType) {
      return Literal.ofBoolean(value.asBoolean());
    } else if (type instanceof ByteType) {
      return Literal.ofByte((byte) value.asInt());
    } else if (type instanceof ShortType) {
      return Literal.ofShort((short) value.asInt());
    } else if (type instanceof IntegerType) {
      return Literal.ofInt(value.asInt());
    } else if (type instanceof LongType) {
      return Literal.ofLong(value.asLong());
    } else if (type instanceof FloatType) {
      return Literal.ofFloat(
          value.isTextual() ? Float.parseFloat(value.asText()) : value.floatValue());
    } else if (type instanceof DoubleType) {
      return Literal.ofDouble(
          value.isTextual() ? Double.parseDouble(value.asText()) : value.doubleValue());
    } else if (type instanceof DecimalType decimal) {
      BigDecimal number = value.isTextual() ? new BigDecimal(value.asText()) : value.decimalValue();
      return Literal.ofDecimal(number, decimal.getPrecision(), decimal.getScale());
    } else if (type instanceof StringType) {
      return Literal.ofString(value.asText());
    } else if (type instanceof BinaryType) {
      return Literal.ofBinary(value.asText().getBytes(java.nio.charset.StandardCharsets.UTF_8));
    } else if (type instanceof DateType) {
      return Literal.ofDate((int) LocalDate.parse(value.asText()).toEpochDay());
    } else if (type instanceof TimestampType) {
      Instant instant = OffsetDateTime.parse(value.asText()).toInstant();
      return Literal.ofTimestamp(micros(instant));
    } else if (type instanceof TimestampNTZType) {
      Instant instant = LocalDateTime.parse(value.asText()).toInstant(ZoneOffset.UTC);
      return Literal.ofTimestampNtz(micros(instant));
    }
    throw new IllegalArgumentException("No statistics of type " + type);
  }

  private static StructField field(StructType schema, String name) {
    int index = schema.indexOf(name);
    return index < 0 ? null : schema.at(index);
  }

  private static long micros(Instant instant) {
    return Math.addExact(
        Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1000);
  }
}
