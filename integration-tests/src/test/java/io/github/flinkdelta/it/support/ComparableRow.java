/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.support;

import java.io.Serializable;
import java.util.List;
import java.util.Objects;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RawValueData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.types.RowKind;

/**
 * A sink row that Flink's connector test framework can sort and compare: {@code SinkTestSuiteBase}
 * needs {@link Comparable} records, and {@code DeltaSink} takes any {@link RowData}. Rows order by
 * id and are equal when all three fields are.
 */
public final class ComparableRow implements RowDataCompat, Comparable<ComparableRow>, Serializable {

  // A class rather than a record: Flink 1.20's Kryo 2.24 cannot serialize records ("can't get
  // field offset on a record class"), and SinkTestSuiteBase sends the rows through Kryo.
  private static final long serialVersionUID = 1L;

  private final long id;
  private final int bucket;
  private final String payload;

  public ComparableRow(long id, int bucket, String payload) {
    this.id = id;
    this.bucket = bucket;
    this.payload = payload;
  }

  public long id() {
    return id;
  }

  public int bucket() {
    return bucket;
  }

  public String payload() {
    return payload;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof ComparableRow row
        && id == row.id
        && bucket == row.bucket
        && Objects.equals(payload, row.payload);
  }

  @Override
  public int hashCode() {
    return Objects.hash(id, bucket, payload);
  }

  @Override
  public String toString() {
    return "ComparableRow[id=" + id + ", bucket=" + bucket + ", payload=" + payload + "]";
  }

  public static final RowType TYPE =
      RowType.of(
          new LogicalType[] {
            new BigIntType(false), new IntType(false), new VarCharType(VarCharType.MAX_LENGTH)
          },
          new String[] {"id", "bucket", "payload"});

  /** A row read back from the table as canonical values: id, bucket, payload. */
  public static ComparableRow of(List<Object> values) {
    return new ComparableRow((Long) values.get(0), (Integer) values.get(1), (String) values.get(2));
  }

  @Override
  public int compareTo(ComparableRow other) {
    return Long.compare(id, other.id);
  }

  @Override
  public int getArity() {
    return 3;
  }

  @Override
  public RowKind getRowKind() {
    return RowKind.INSERT;
  }

  @Override
  public void setRowKind(RowKind kind) {
    if (kind != RowKind.INSERT) {
      throw new UnsupportedOperationException("Test rows are inserts");
    }
  }

  @Override
  public boolean isNullAt(int pos) {
    return pos == 2 && payload == null;
  }

  @Override
  public long getLong(int pos) {
    return id;
  }

  @Override
  public int getInt(int pos) {
    return bucket;
  }

  @Override
  public StringData getString(int pos) {
    return StringData.fromString(payload);
  }

  @Override
  public boolean getBoolean(int pos) {
    throw unsupported(pos);
  }

  @Override
  public byte getByte(int pos) {
    throw unsupported(pos);
  }

  @Override
  public short getShort(int pos) {
    throw unsupported(pos);
  }

  @Override
  public float getFloat(int pos) {
    throw unsupported(pos);
  }

  @Override
  public double getDouble(int pos) {
    throw unsupported(pos);
  }

  @Override
  public DecimalData getDecimal(int pos, int precision, int scale) {
    throw unsupported(pos);
  }

  @Override
  public TimestampData getTimestamp(int pos, int precision) {
    throw unsupported(pos);
  }

  @Override
  public <T> RawValueData<T> getRawValue(int pos) {
    throw unsupported(pos);
  }

  @Override
  public byte[] getBinary(int pos) {
    throw unsupported(pos);
  }

  @Override
  public ArrayData getArray(int pos) {
    throw unsupported(pos);
  }

  @Override
  public MapData getMap(int pos) {
    throw unsupported(pos);
  }

  @Override
  public RowData getRow(int pos, int numFields) {
    throw unsupported(pos);
  }

  private static UnsupportedOperationException unsupported(int pos) {
    return new UnsupportedOperationException("Field " + pos + " does not have that type");
  }
}
