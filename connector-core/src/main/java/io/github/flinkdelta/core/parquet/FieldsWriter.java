/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.parquet;

import java.util.List;
import java.util.stream.IntStream;
import org.apache.flink.table.data.RowData;
import org.apache.parquet.io.api.RecordConsumer;

/** Writes the fields of one row (the top-level record or a nested row) into a Parquet group. */
final class FieldsWriter {

  private final String table;
  private final String[] names;
  private final String[] paths;
  private final boolean[] nullable;
  private final ValueWriter[] writers;
  private final int[] positions;

  /** The fields declared NOT NULL, by index; most tables have few. */
  private final int[] required;

  /**
   * @param positions where each field sits in the incoming {@link RowData}, or {@code null} when
   *     field {@code i} sits at position {@code i}
   */
  FieldsWriter(
      String table,
      String pathPrefix,
      List<ParquetColumn> fields,
      ValueWriter[] writers,
      int[] positions) {
    this.table = table;
    this.writers = writers;
    this.names = new String[fields.size()];
    this.paths = new String[fields.size()];
    this.nullable = new boolean[fields.size()];
    for (int i = 0; i < names.length; i++) {
      names[i] = fields.get(i).physicalName();
      paths[i] = pathPrefix + fields.get(i).logicalName();
      nullable[i] = fields.get(i).nullable();
    }
    this.positions = positions;
    this.required = IntStream.range(0, names.length).filter(i -> !nullable[i]).toArray();
  }

  int size() {
    return names.length;
  }

  void write(RecordConsumer consumer, RowData row) {
    for (int i = 0; i < names.length; i++) {
      int pos = positions == null ? i : positions[i];
      if (row.isNullAt(pos)) {
        if (!nullable[i]) {
          throw new NullValueException(table, paths[i]);
        }
        writers[i].addNull();
      } else {
        consumer.startField(names[i], i);
        writers[i].write(consumer, row, pos);
        consumer.endField(names[i], i);
      }
    }
  }

  /** The whole row is null: every column below it counts a null. */
  void addNull() {
    for (ValueWriter writer : writers) {
      writer.addNull();
    }
  }

  /** Checks the row's top-level NOT NULL columns before anything of it is written. */
  void checkNotNull(RowData row) {
    for (int i : required) {
      if (row.isNullAt(positions == null ? i : positions[i])) {
        throw new NullValueException(table, paths[i]);
      }
    }
  }
}
