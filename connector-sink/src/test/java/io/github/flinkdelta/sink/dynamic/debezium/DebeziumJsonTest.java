/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.dynamic.debezium;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkdelta.sink.dynamic.DynamicRecord;
import io.github.flinkdelta.sink.dynamic.DynamicRecordGenerator;
import io.github.flinkdelta.sink.dynamic.TableChange;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.Test;

/** Debezium's JSON change events as the dynamic sink's records and table changes. */
class DebeziumJsonTest {

  private static final String FIELDS =
      """
      {"type":"int32","optional":false,"field":"id"},
      {"type":"string","optional":true,"field":"item"},
      {"type":"int32","optional":true,"name":"io.debezium.time.Date","field":"day"},
      {"type":"bytes","optional":true,"name":"org.apache.kafka.connect.data.Decimal",
       "parameters":{"scale":"2","connect.decimal.precision":"10"},"field":"price"},
      {"type":"int64","optional":true,"name":"io.debezium.time.MicroTimestamp","field":"at"},
      {"type":"int64","optional":true,"name":"io.debezium.time.MicroTime","field":"slot"}""";

  private static final String KEY =
      """
      {"schema":{"type":"struct","optional":false,"fields":[
        {"type":"int32","optional":false,"field":"id"}]},"payload":{"id":%d}}""";

  private final List<Object> out = new ArrayList<>();
  private final DynamicRecordGenerator.Output output =
      new DynamicRecordGenerator.Output() {
        @Override
        public void collect(DynamicRecord record) {
          out.add(record);
        }

        @Override
        public void apply(TableChange change) {
          out.add(change);
        }
      };

  @Test
  void eventsBecomeRecordsOfTheTableTheTemplateNamesWithTheKeyOfTheirKey() throws Exception {
    DebeziumJson tables = DebeziumJson.tables("{db}.{table}");
    tables.generate(message(1, "c", null, row(1, "apple")), output);
    tables.generate(message(1, "u", row(1, "apple"), row(1, "pear")), output);
    tables.generate(message(1, "d", row(1, "pear"), null), output);
    tables.generate(new DebeziumMessage(key(1), null), output);
    tables.generate(message(1, "t", null, null), output);

    assertThat(out).hasSize(4);
    DynamicRecord created = (DynamicRecord) out.get(0);
    assertThat(created.table().name()).isEqualTo("inventory.orders");
    assertThat(created.table().primaryKey()).containsExactly("id");
    assertThat(created.table().rowType().getFieldNames())
        .containsExactly("id", "item", "day", "price", "at", "slot");
    assertThat(created.table().rowType().getTypeAt(0).isNullable()).isFalse();
    assertThat(created.table().rowType().getTypeAt(3).asSummaryString())
        .isEqualTo("DECIMAL(10, 2)");
    assertThat(created.row().getRowKind()).isEqualTo(RowKind.INSERT);
    assertThat(created.row().getInt(0)).isEqualTo(1);
    assertThat(created.row().getString(1).toString()).isEqualTo("apple");
    assertThat(created.row().getInt(2)).isEqualTo(19_000);
    assertThat(created.row().getDecimal(3, 10, 2))
        .isEqualTo(DecimalData.fromBigDecimal(new BigDecimal("12.34"), 10, 2));
    assertThat(created.row().getTimestamp(4, 6))
        .isEqualTo(TimestampData.fromEpochMillis(1_700_000_000_123L, 456_000));
    assertThat(created.row().getString(5).toString()).isEqualTo("10:15:30.000500");

    DynamicRecord updated = (DynamicRecord) out.get(1);
    assertThat(updated.row().getRowKind()).isEqualTo(RowKind.UPDATE_AFTER);
    assertThat(updated.row().getString(1).toString()).isEqualTo("pear");
    // One shape for one schema and key: the sink resolves the table once.
    assertThat(updated.table()).isSameAs(created.table());
    DynamicRecord deleted = (DynamicRecord) out.get(2);
    assertThat(deleted.row().getRowKind()).isEqualTo(RowKind.DELETE);
    assertThat(deleted.row().getInt(0)).isEqualTo(1);
    assertThat(out.get(3)).isEqualTo(TableChange.truncateTable("inventory.orders"));
  }

  @Test
  void anUpdateThatChangesTheKeyDeletesTheOldKeysRow() throws Exception {
    DebeziumJson.tables("{table}").generate(message(2, "u", row(1, "a"), row(2, "a")), output);

    assertThat(out).hasSize(2);
    assertThat(((DynamicRecord) out.get(0)).row().getRowKind()).isEqualTo(RowKind.DELETE);
    assertThat(((DynamicRecord) out.get(0)).row().getInt(0)).isEqualTo(1);
    assertThat(((DynamicRecord) out.get(1)).row().getRowKind()).isEqualTo(RowKind.UPDATE_AFTER);
    assertThat(((DynamicRecord) out.get(1)).row().getInt(0)).isEqualTo(2);
  }

  @Test
  void eventsWithoutKeysAppendAndRefuseUpdatesNamingTheTable() throws Exception {
    DebeziumJson tables = DebeziumJson.tables("{db}_{table}");
    tables.generate(DebeziumMessage.ofValue(value("r", null, row(1, "a"))), output);
    assertThat(((DynamicRecord) out.get(0)).table().upserts()).isFalse();
    assertThat(((DynamicRecord) out.get(0)).table().name()).isEqualTo("inventory_orders");

    assertThatThrownBy(
            () ->
                tables.generate(
                    DebeziumMessage.ofValue(value("u", row(1, "a"), row(1, "b"))), output))
        .hasMessageContaining("inventory_orders")
        .hasMessageContaining("no primary key");
  }

  @Test
  void eventsWithoutTheirSchemaOrWithAnUnknownPlaceholderAreRefusedSayingWhatToSet() {
    assertThatThrownBy(
            () ->
                DebeziumJson.tables("{table}")
                    .generate(
                        DebeziumMessage.ofValue(
                            "{\"before\":null,\"after\":{\"id\":1},\"op\":\"c\"}"
                                .getBytes(StandardCharsets.UTF_8)),
                        output))
        .hasMessageContaining("value.converter.schemas.enable=true");
    assertThatThrownBy(() -> DebeziumJson.tables("{database}.{table}"))
        .hasMessageContaining("{database}")
        .hasMessageContaining("{db}");
  }

  private static DebeziumMessage message(int key, String op, String before, String after) {
    return new DebeziumMessage(key(key), value(op, before, after));
  }

  private static byte[] key(int id) {
    return String.format(KEY, id).getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] value(String op, String before, String after) {
    String schema =
        "{\"type\":\"struct\",\"name\":\"inv.inventory.orders.Envelope\",\"fields\":["
            + rowSchema("before")
            + ","
            + rowSchema("after")
            + ",{\"type\":\"struct\",\"field\":\"source\",\"fields\":[]}"
            + ",{\"type\":\"string\",\"field\":\"op\"}]}";
    String source =
        "{\"connector\":\"mysql\",\"name\":\"inv\",\"db\":\"inventory\"," + "\"table\":\"orders\"}";
    return String.format(
            "{\"schema\":%s,\"payload\":{\"before\":%s,\"after\":%s,\"source\":%s,\"op\":\"%s\","
                + "\"ts_ms\":1}}",
            schema, before, after, source, op)
        .getBytes(StandardCharsets.UTF_8);
  }

  private static String rowSchema(String field) {
    return "{\"type\":\"struct\",\"optional\":true,\"field\":\""
        + field
        + "\",\"fields\":["
        + FIELDS
        + "]}";
  }

  private static String row(int id, String item) {
    return String.format(
        "{\"id\":%d,\"item\":\"%s\",\"day\":19000,\"price\":\"BNI=\",\"at\":1700000000123456,"
            + "\"slot\":36930000500}",
        id, item);
  }
}
