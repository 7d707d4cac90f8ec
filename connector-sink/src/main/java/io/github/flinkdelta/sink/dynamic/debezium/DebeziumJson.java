/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.dynamic.debezium;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.flinkdelta.sink.dynamic.DynamicRecord;
import io.github.flinkdelta.sink.dynamic.DynamicRecordGenerator;
import io.github.flinkdelta.sink.dynamic.DynamicTable;
import io.github.flinkdelta.sink.dynamic.TableChange;
import io.github.flinkdelta.sink.dynamic.TableNameTemplate;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.types.RowKind;

/**
 * A ready {@link DynamicRecordGenerator} for Debezium change events in JSON with their schemas
 * (Kafka Connect's JSON converter with {@code schemas.enable=true}, as Debezium Server, Kafka
 * Connect and Flink CDC's Debezium JSON emit them): each event goes to the table its {@code source}
 * names through a template, with the row type its schema gives, and the primary key its key gives.
 *
 * <ul>
 *   <li>{@code c} (create) and {@code r} (snapshot read) write the {@code after} row; {@code u}
 *       (update) writes it as the key's new row, after deleting the {@code before} row when the key
 *       changed; {@code d} (delete) deletes the {@code before} row's key; {@code t} (truncate) is a
 *       table event ({@link TableChange#truncateTable}); tombstones and other operations are
 *       skipped.
 *   <li>A table's key is the fields of the event's key; without a key (or with {@link
 *       #withoutKeys()}) the table appends, and an update or delete fails naming the table.
 *   <li>A column the source adds appears in the schema and is added to the table; a column the
 *       source drops is written as null (Debezium's value stream does not say it was dropped).
 * </ul>
 *
 * <pre>{@code
 * KafkaSource<DebeziumMessage> changes = KafkaSource.<DebeziumMessage>builder()
 *     .setTopicPattern(Pattern.compile("dbserver1\\..*"))
 *     .setDeserializer(KafkaRecordDeserializationSchema.of(...record ->
 *         new DebeziumMessage(record.key(), record.value())))
 *     ...;
 * env.fromSource(changes, WatermarkStrategy.noWatermarks(), "cdc")
 *     .sinkTo(DeltaSink.dynamic(DebeziumJson.tables("{db}.{table}"))
 *         .unityCatalog(connection).defaultNamespace("main")
 *         .build());
 * }</pre>
 */
@PublicEvolving
public final class DebeziumJson implements DynamicRecordGenerator<DebeziumMessage> {

  private static final long serialVersionUID = 1L;

  private final String template;
  private final TableNameTemplate names;
  private final boolean keys;
  private final Map<String, List<String>> partitionColumns;

  private transient ObjectMapper json;
  private transient Map<String, Shape> shapes;

  private DebeziumJson(String template, boolean keys, Map<String, List<String>> partitionColumns) {
    this.template = Objects.requireNonNull(template, "template");
    this.keys = keys;
    this.partitionColumns = Map.copyOf(partitionColumns);
    this.names =
        TableNameTemplate.of(
            template,
            List.of("db", "schema", "table", "name", "connector"),
            "the fields of a Debezium event's source");
  }

  /**
   * Events to the tables {@code template} names from each event's {@code source}: {@code {db}},
   * {@code {schema}} (PostgreSQL, SQL Server), {@code {table}}, {@code {name}} (the connector's
   * topic prefix), {@code {connector}}; e.g. {@code "{db}.{table}"} or {@code "cdc_{table}"}.
   */
  public static DebeziumJson tables(String template) {
    return new DebeziumJson(template, true, Map.of());
  }

  /** These events, every table appending them with no primary key, whatever the events' keys. */
  public DebeziumJson withoutKeys() {
    return new DebeziumJson(template, false, partitionColumns);
  }

  /** These events, table {@code table} (as the template names it) created partitioned. */
  public DebeziumJson withPartitionColumns(String table, String... columns) {
    Map<String, List<String>> partitions = new HashMap<>(partitionColumns);
    partitions.put(table, List.of(columns));
    return new DebeziumJson(template, keys, partitions);
  }

  /** A table and shape compiled from one schema: the table, and the readers of its rows. */
  private record Shape(DynamicTable table, ConnectSchemas.Struct rows) {}

  @Override
  public void generate(DebeziumMessage message, Output out) throws Exception {
    if (message.value() == null) {
      return;
    }
    if (json == null) {
      json = new ObjectMapper();
      shapes = new LinkedHashMap<>(16, 0.75f, true);
    }
    JsonNode value = json.readTree(message.value());
    JsonNode payload = value.get("payload");
    JsonNode schema = value.get("schema");
    if (payload == null || schema == null || schema.isNull()) {
      throw new IllegalArgumentException(
          "A Debezium event without its schema (value: "
              + abbreviate(value)
              + "); the Delta sink needs the schema beside the payload: set"
              + " value.converter.schemas.enable=true (and key.converter.schemas.enable=true)");
    }
    String op = payload.path("op").asText();
    String table = tableName(payload.path("source"));
    switch (op) {
      case "c", "r" -> write(out, table, schema, message, payload.get("after"), RowKind.INSERT);
      case "u" -> update(out, table, schema, message, payload);
      case "d" -> write(out, table, schema, message, payload.get("before"), RowKind.DELETE);
      case "t" -> out.apply(TableChange.truncateTable(table));
      default -> {
        // Messages ("m") and heartbeats carry no rows.
      }
    }
  }

  private void update(
      Output out, String table, JsonNode schema, DebeziumMessage message, JsonNode payload)
      throws Exception {
    Shape shape = shape(table, schema, message);
    if (!shape.table().upserts()) {
      throw new IllegalArgumentException(
          String.format(
              "Debezium event '%s' updates a row of table %s, which has no primary key: its events"
                  + " carry no key. Give the events their keys (a Kafka source that passes"
                  + " record keys), or filter updates and deletes out for an appending table.",
              "u", table));
    }
    JsonNode before = payload.get("before");
    JsonNode after = payload.get("after");
    if (before != null && !before.isNull() && keyChanged(shape.table(), before, after)) {
      out.collect(new DynamicRecord(shape.table(), row(shape, before, RowKind.DELETE)));
    }
    out.collect(new DynamicRecord(shape.table(), row(shape, after, RowKind.UPDATE_AFTER)));
  }

  private void write(
      Output out,
      String table,
      JsonNode schema,
      DebeziumMessage message,
      JsonNode struct,
      RowKind kind)
      throws Exception {
    if (struct == null || struct.isNull()) {
      return;
    }
    Shape shape = shape(table, schema, message);
    if (kind == RowKind.DELETE && !shape.table().upserts()) {
      throw new IllegalArgumentException(
          String.format(
              "Debezium event 'd' deletes a row of table %s, which has no primary key: its events"
                  + " carry no key. Give the events their keys (a Kafka source that passes record"
                  + " keys), or filter updates and deletes out for an appending table.",
              table));
    }
    out.collect(new DynamicRecord(shape.table(), row(shape, struct, kind)));
  }

  private static GenericRowData row(Shape shape, JsonNode struct, RowKind kind) {
    GenericRowData row = shape.rows().read(struct);
    row.setRowKind(kind);
    return row;
  }

  private static boolean keyChanged(DynamicTable table, JsonNode before, JsonNode after) {
    for (String column : table.primaryKey()) {
      if (!before.path(column).equals(after.path(column))) {
        return true;
      }
    }
    return false;
  }

  /** The table and row readers of events of {@code table} with {@code schema}. */
  private Shape shape(String table, JsonNode schema, DebeziumMessage message) throws IOException {
    List<String> key = keys && message.key() != null ? keyFields(message.key()) : List.of();
    String cacheKey = table + '\0' + key + '\0' + schema;
    Shape shape = shapes.get(cacheKey);
    if (shape == null) {
      JsonNode rowSchema = null;
      for (JsonNode field : schema.path("fields")) {
        if (field.path("field").asText().equals("after")
            || (rowSchema == null && field.path("field").asText().equals("before"))) {
          rowSchema = field;
        }
      }
      if (rowSchema == null) {
        throw new IllegalArgumentException(
            "Debezium event of table "
                + table
                + " has no 'before' or 'after' in its schema: "
                + abbreviate(schema));
      }
      ConnectSchemas.Struct rows = ConnectSchemas.struct(rowSchema, table);
      DynamicTable dynamic = DynamicTable.of(table, rows.rowType());
      List<String> partitions = partitionColumns.get(table);
      if (partitions != null) {
        dynamic = dynamic.withPartitionColumns(partitions.toArray(new String[0]));
      }
      if (!key.isEmpty()) {
        dynamic = dynamic.withPrimaryKey(key.toArray(new String[0]));
      }
      shape = new Shape(dynamic, rows);
      shapes.put(cacheKey, shape);
      if (shapes.size() > 10_000) {
        shapes.remove(shapes.keySet().iterator().next());
      }
    }
    return shape;
  }

  private List<String> keyFields(byte[] keyBytes) throws IOException {
    JsonNode key = json.readTree(keyBytes);
    List<String> fields = new ArrayList<>();
    JsonNode schema = key.path("schema");
    if (schema.path("type").asText().equals("struct")) {
      schema.path("fields").forEach(field -> fields.add(field.path("field").asText()));
    } else {
      key.path("payload").fieldNames().forEachRemaining(fields::add);
    }
    return fields;
  }

  private String tableName(JsonNode source) {
    return names.fill(
        part -> {
          JsonNode value = source.get(part);
          return value == null || value.isNull() ? null : value.asText();
        },
        "the Debezium event's source " + abbreviate(source));
  }

  private static String abbreviate(JsonNode node) {
    String text = String.valueOf(node);
    return text.length() <= 300 ? text : text.substring(0, 300) + "...";
  }
}
