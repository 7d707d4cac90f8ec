/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.dynamic;

import io.github.flinkdelta.sink.dynamic.debezium.DebeziumMessage;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Debezium JSON change events of a shop database, as Kafka Connect's JSON converter writes them
 * (schema beside payload, key beside value): event {@code i} changes {@code shop.orders} (key
 * {@code i % 97}: deletes, creates and updates), or inserts into {@code shop.customers}; from the
 * middle on, orders carry a column {@code note} the source added, and from three quarters on, a
 * table {@code shop.returns} appears. {@link #expected} replays the events.
 */
public final class ShopEvents implements Serializable {

  private final long count;

  public ShopEvents(long count) {
    this.count = count;
  }

  public DebeziumMessage event(long i) {
    if (i % 5 == 4) {
      return message(
          "customers",
          "int64",
          i,
          "c",
          null,
          "{\"id\":" + i + ",\"name\":\"customer-" + i + "\"}",
          field("int64", "id", false) + "," + field("string", "name", true));
    }
    if (i % 5 == 3 && i >= count * 3 / 4) {
      return message(
          "returns",
          "int64",
          i,
          "c",
          null,
          "{\"id\":" + i + ",\"reason\":\"reason-" + i + "\"}",
          field("int64", "id", false) + "," + field("string", "reason", true));
    }
    long key = i % 97;
    boolean noted = i >= count / 2;
    String fields =
        field("int32", "id", false)
            + ","
            + field("string", "item", true)
            + ","
            + field("int32", "qty", true)
            + (noted ? "," + field("string", "note", true) : "");
    String row =
        "{\"id\":"
            + key
            + ",\"item\":\"item-"
            + i
            + "\",\"qty\":"
            + (i % 13)
            + (noted ? ",\"note\":\"note-" + i + "\"" : "")
            + "}";
    if (i % 7 == 0) {
      return message("orders", "int32", key, "d", row, null, fields);
    }
    return message("orders", "int32", key, i % 3 == 0 ? "c" : "u", null, row, fields);
  }

  /** The rows each table holds once the events below {@code count} are written, by table. */
  public Map<String, Map<Long, List<Object>>> expected() {
    Map<String, Map<Long, List<Object>>> tables = new LinkedHashMap<>();
    tables.put("shop.orders", new TreeMap<>());
    tables.put("shop.customers", new TreeMap<>());
    tables.put("shop.returns", new TreeMap<>());
    for (long i = 0; i < count; i++) {
      if (i % 5 == 4) {
        tables.get("shop.customers").put(i, List.of(i, "customer-" + i));
      } else if (i % 5 == 3 && i >= count * 3 / 4) {
        tables.get("shop.returns").put(i, List.of(i, "reason-" + i));
      } else if (i % 7 == 0) {
        tables.get("shop.orders").remove(i % 97);
      } else {
        long key = i % 97;
        tables
            .get("shop.orders")
            .put(
                key,
                Arrays.asList(
                    (int) key, "item-" + i, (int) (i % 13), i >= count / 2 ? "note-" + i : null));
      }
    }
    return tables;
  }

  private static String field(String type, String name, boolean optional) {
    return String.format(
        "{\"type\":\"%s\",\"optional\":%s,\"field\":\"%s\"}", type, optional, name);
  }

  private static DebeziumMessage message(
      String table,
      String keyType,
      long key,
      String op,
      String before,
      String after,
      String fields) {
    String keyJson =
        String.format(
            "{\"schema\":{\"type\":\"struct\",\"optional\":false,\"fields\":[%s]},"
                + "\"payload\":{\"id\":%d}}",
            field(keyType, "id", false), key);
    String rowSchema = "{\"type\":\"struct\",\"optional\":true,\"fields\":[" + fields + "]";
    String schema =
        "{\"type\":\"struct\",\"optional\":false,\"name\":\"shop."
            + table
            + ".Envelope\",\"fields\":["
            + rowSchema
            + ",\"field\":\"before\"},"
            + rowSchema
            + ",\"field\":\"after\"},"
            + "{\"type\":\"struct\",\"optional\":false,\"field\":\"source\",\"fields\":[]},"
            + "{\"type\":\"string\",\"optional\":false,\"field\":\"op\"}]}";
    String value =
        String.format(
            "{\"schema\":%s,\"payload\":{\"before\":%s,\"after\":%s,\"source\":{\"connector\":"
                + "\"mysql\",\"name\":\"shop\",\"db\":\"shop\",\"table\":\"%s\"},\"op\":\"%s\","
                + "\"ts_ms\":1}}",
            schema, before, after, table, op);
    return new DebeziumMessage(
        keyJson.getBytes(StandardCharsets.UTF_8), value.getBytes(StandardCharsets.UTF_8));
  }
}
