/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.parquet;

import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnWriteStore;
import org.apache.parquet.column.ColumnWriter;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/**
 * Records of a schema whose fields are all primitive, written straight into their column writers.
 * With no nesting there is nothing to shred: a present value has the column's maximum definition
 * level, a missing one level 0, and no value repeats. This skips the bookkeeping parquet-java's
 * general record writer does for every field of every row (which fields of each group were written,
 * which nulls to cache), a measurable share of the writer's time on wide flat rows.
 *
 * <p>Fields must be started in ascending order, as {@link FieldsWriter} does; a field not started
 * is null. Schemas with groups use parquet-java's record writer instead.
 */
final class FlatRecordConsumer extends RecordConsumer {

  private final ColumnWriteStore store;
  private final ColumnWriter[] columns;
  private final int[] presentLevels;
  private ColumnWriter column;
  private int presentLevel;
  private int nextField;

  FlatRecordConsumer(MessageType schema, ColumnWriteStore store) {
    this.store = store;
    this.columns = new ColumnWriter[schema.getFieldCount()];
    this.presentLevels = new int[columns.length];
    for (int i = 0; i < columns.length; i++) {
      ColumnDescriptor descriptor =
          schema.getColumnDescription(new String[] {schema.getFieldName(i)});
      columns[i] = store.getColumnWriter(descriptor);
      presentLevels[i] = descriptor.getMaxDefinitionLevel();
    }
  }

  /** Whether {@code schema} has primitive fields only, which this consumer requires. */
  static boolean supports(MessageType schema) {
    return schema.getFields().stream()
        .allMatch(field -> field.isPrimitive() && !field.isRepetition(Type.Repetition.REPEATED));
  }

  @Override
  public void startMessage() {
    nextField = 0;
  }

  @Override
  public void endMessage() {
    writeNullsBefore(columns.length);
    store.endRecord();
  }

  @Override
  public void startField(String field, int index) {
    writeNullsBefore(index);
    column = columns[index];
    presentLevel = presentLevels[index];
    nextField = index + 1;
  }

  @Override
  public void endField(String field, int index) {}

  private void writeNullsBefore(int field) {
    for (int i = nextField; i < field; i++) {
      if (presentLevels[i] == 0) {
        throw new IllegalStateException("Required Parquet column " + i + " has no value");
      }
      columns[i].writeNull(0, 0);
    }
    nextField = Math.max(nextField, field);
  }

  @Override
  public void startGroup() {
    throw new UnsupportedOperationException("A flat record has no groups");
  }

  @Override
  public void endGroup() {
    throw new UnsupportedOperationException("A flat record has no groups");
  }

  @Override
  public void addInteger(int value) {
    column.write(value, 0, presentLevel);
  }

  @Override
  public void addLong(long value) {
    column.write(value, 0, presentLevel);
  }

  @Override
  public void addBoolean(boolean value) {
    column.write(value, 0, presentLevel);
  }

  @Override
  public void addBinary(Binary value) {
    column.write(value, 0, presentLevel);
  }

  @Override
  public void addFloat(float value) {
    column.write(value, 0, presentLevel);
  }

  @Override
  public void addDouble(double value) {
    column.write(value, 0, presentLevel);
  }
}
