/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.parquet;

import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.parquet.io.api.RecordConsumer;

/** Writers of arrays, maps and nested rows, in Parquet's standard nested layouts. */
final class NestedWriters {

  private NestedWriters() {}

  /** Three-level Parquet LIST: {@code group (LIST) { repeated group list { element } }}. */
  static final class ArrayWriter extends LeafWriters.LeafWriter {
    private final String table;
    private final String name;
    private final boolean elementNullable;
    private final ValueWriter element;

    ArrayWriter(
        String table,
        String name,
        ParquetColumn elementColumn,
        ValueWriter element,
        ColumnStats stats) {
      super(stats);
      this.table = table;
      this.name = name;
      this.elementNullable = elementColumn.nullable();
      this.element = element;
    }

    @Override
    public void write(RecordConsumer consumer, RowData row, int pos) {
      writeArray(consumer, row.getArray(pos));
    }

    @Override
    public void write(RecordConsumer consumer, ArrayData array, int pos) {
      writeArray(consumer, array.getArray(pos));
    }

    private void writeArray(RecordConsumer consumer, ArrayData array) {
      consumer.startGroup();
      int size = array.size();
      if (size > 0) {
        consumer.startField("list", 0);
        for (int i = 0; i < size; i++) {
          consumer.startGroup();
          if (!array.isNullAt(i)) {
            consumer.startField("element", 0);
            element.write(consumer, array, i);
            consumer.endField("element", 0);
          } else if (!elementNullable) {
            throw new NullValueException(table, name + ".element");
          }
          consumer.endGroup();
        }
        consumer.endField("list", 0);
      }
      consumer.endGroup();
    }
  }

  /** Parquet MAP: {@code group (MAP) { repeated group key_value { key; value } }}. */
  static final class MapWriter extends LeafWriters.LeafWriter {
    private final String table;
    private final String name;
    private final ValueWriter key;
    private final boolean valueNullable;
    private final ValueWriter value;

    MapWriter(
        String table,
        String name,
        ValueWriter key,
        ParquetColumn valueColumn,
        ValueWriter value,
        ColumnStats stats) {
      super(stats);
      this.table = table;
      this.name = name;
      this.key = key;
      this.valueNullable = valueColumn.nullable();
      this.value = value;
    }

    @Override
    public void write(RecordConsumer consumer, RowData row, int pos) {
      writeMap(consumer, row.getMap(pos));
    }

    @Override
    public void write(RecordConsumer consumer, ArrayData array, int pos) {
      writeMap(consumer, array.getMap(pos));
    }

    private void writeMap(RecordConsumer consumer, MapData map) {
      consumer.startGroup();
      int size = map.size();
      if (size > 0) {
        ArrayData keys = map.keyArray();
        ArrayData values = map.valueArray();
        consumer.startField("key_value", 0);
        for (int i = 0; i < size; i++) {
          consumer.startGroup();
          if (keys.isNullAt(i)) {
            throw new NullValueException(table, name + ".key");
          }
          consumer.startField("key", 0);
          key.write(consumer, keys, i);
          consumer.endField("key", 0);
          if (!values.isNullAt(i)) {
            consumer.startField("value", 1);
            value.write(consumer, values, i);
            consumer.endField("value", 1);
          } else if (!valueNullable) {
            throw new NullValueException(table, name + ".value");
          }
          consumer.endGroup();
        }
        consumer.endField("key_value", 0);
      }
      consumer.endGroup();
    }
  }

  /** A nested row: a Parquet group holding its fields. */
  static final class RowWriter implements ValueWriter {
    private final FieldsWriter fields;

    RowWriter(FieldsWriter fields) {
      this.fields = fields;
    }

    @Override
    public void write(RecordConsumer consumer, RowData row, int pos) {
      consumer.startGroup();
      fields.write(consumer, row.getRow(pos, fields.size()));
      consumer.endGroup();
    }

    @Override
    public void write(RecordConsumer consumer, ArrayData array, int pos) {
      consumer.startGroup();
      fields.write(consumer, array.getRow(pos, fields.size()));
      consumer.endGroup();
    }

    @Override
    public void addNull() {
      fields.addNull();
    }
  }
}
