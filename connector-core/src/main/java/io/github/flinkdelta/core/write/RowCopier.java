/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.write;

import io.github.flinkdelta.core.parquet.NullValueException;
import io.github.flinkdelta.core.parquet.ParquetColumn;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;

/**
 * Encodes the fields a writer reads from an incoming row into a compact byte array, which outlives
 * Flink's reuse of the memory behind the row and takes little more heap than the row's values, and
 * decodes it back into a row. Rows of scalar and nested-row columns are encoded; rows with arrays
 * or maps have no encoder.
 */
final class RowCopier {

  private final String table;
  private final String[] names;
  private final boolean[] required;
  private final int arity;
  private final int[] positions;
  private final RowData.FieldGetter[] getters;
  private final FieldCodec[] codecs;
  private final DataOutputSerializer buffer = new DataOutputSerializer(256);
  private final DataInputDeserializer reader = new DataInputDeserializer();

  private RowCopier(
      String table,
      List<String> names,
      int arity,
      int[] positions,
      List<LogicalType> types,
      List<FieldCodec> codecs) {
    this.table = table;
    this.names = names.toArray(String[]::new);
    this.required = new boolean[positions.length];
    this.arity = arity;
    this.positions = positions;
    this.getters = new RowData.FieldGetter[positions.length];
    this.codecs = codecs.toArray(FieldCodec[]::new);
    for (int i = 0; i < positions.length; i++) {
      // A NOT NULL column may still be sent a null; the getter of the nullable type checks, so the
      // error can name the column (Flink 1.20's getter of a NOT NULL type reads it unchecked).
      getters[i] = RowData.createFieldGetter(types.get(i).copy(true), positions[i]);
      required[i] = table != null && !types.get(i).isNullable();
    }
  }

  /**
   * An encoder of the data columns a file layout reads, if every one of them can be encoded. The
   * partition columns are not encoded: a held row's partition is known, and files do not store it.
   */
  static Optional<RowCopier> forLayout(FileLayout layout) {
    List<String> names = new ArrayList<>();
    List<Integer> positions = new ArrayList<>();
    List<LogicalType> types = new ArrayList<>();
    List<ParquetColumn> dataColumns = layout.dataColumns();
    for (int i = 0; i < dataColumns.size(); i++) {
      names.add(dataColumns.get(i).logicalName());
      positions.add(layout.data().position(i));
      types.add(dataColumns.get(i).type());
    }
    int arity = positions.stream().mapToInt(Integer::intValue).max().orElse(-1) + 1;
    return of(
        layout.tableName(),
        names,
        arity,
        positions.stream().mapToInt(Integer::intValue).toArray(),
        types);
  }

  private static Optional<RowCopier> of(
      String table, List<String> names, int arity, int[] positions, List<LogicalType> types) {
    List<FieldCodec> codecs = new ArrayList<>();
    for (LogicalType type : types) {
      Optional<FieldCodec> codec = codec(type);
      if (codec.isEmpty()) {
        return Optional.empty();
      }
      codecs.add(codec.get());
    }
    return Optional.of(new RowCopier(table, names, arity, positions, types, codecs));
  }

  /**
   * The row's read fields, encoded.
   *
   * @throws NullValueException when a NOT NULL column holds a null, as the file writer would
   */
  byte[] encode(RowData row) {
    buffer.clear();
    try {
      write(row, buffer);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return buffer.getCopyOfBuffer();
  }

  /** A row holding the encoded fields at their positions; other positions are null. */
  RowData decode(byte[] encoded) {
    reader.setBuffer(encoded);
    try {
      return read(reader);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void write(RowData row, DataOutputSerializer out) throws IOException {
    out.writeByte(row.getRowKind().toByteValue());
    for (int i = 0; i < positions.length; i++) {
      Object value = getters[i].getFieldOrNull(row);
      if (value == null && required[i]) {
        throw new NullValueException(table, names[i]);
      }
      out.writeBoolean(value != null);
      if (value != null) {
        codecs[i].write(value, out);
      }
    }
  }

  private RowData read(DataInputDeserializer in) throws IOException {
    GenericRowData row =
        new GenericRowData(org.apache.flink.types.RowKind.fromByteValue(in.readByte()), arity);
    for (int i = 0; i < positions.length; i++) {
      if (in.readBoolean()) {
        row.setField(positions[i], codecs[i].read(in));
      }
    }
    return row;
  }

  private interface FieldCodec {
    void write(Object value, DataOutputSerializer out) throws IOException;

    Object read(DataInputDeserializer in) throws IOException;
  }

  private static Optional<FieldCodec> codec(LogicalType type) {
    switch (type.getTypeRoot()) {
      case CHAR:
      case VARCHAR:
        return Optional.of(
            codec(
                (v, out) -> bytes(((StringData) v).toBytes(), out),
                in -> StringData.fromBytes(bytes(in))));
      case BINARY:
      case VARBINARY:
        return Optional.of(codec((v, out) -> bytes((byte[]) v, out), RowCopier::bytes));
      case BOOLEAN:
        return Optional.of(
            codec((v, out) -> out.writeBoolean((Boolean) v), in -> in.readBoolean()));
      case TINYINT:
        return Optional.of(codec((v, out) -> out.writeByte((Byte) v), in -> in.readByte()));
      case SMALLINT:
        return Optional.of(codec((v, out) -> out.writeShort((Short) v), in -> in.readShort()));
      case INTEGER:
      case DATE:
      case TIME_WITHOUT_TIME_ZONE:
        return Optional.of(codec((v, out) -> out.writeInt((Integer) v), in -> in.readInt()));
      case BIGINT:
        return Optional.of(codec((v, out) -> out.writeLong((Long) v), in -> in.readLong()));
      case FLOAT:
        return Optional.of(codec((v, out) -> out.writeFloat((Float) v), in -> in.readFloat()));
      case DOUBLE:
        return Optional.of(codec((v, out) -> out.writeDouble((Double) v), in -> in.readDouble()));
      case TIMESTAMP_WITHOUT_TIME_ZONE:
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
        return Optional.of(
            codec(
                (v, out) -> {
                  out.writeLong(((TimestampData) v).getMillisecond());
                  out.writeInt(((TimestampData) v).getNanoOfMillisecond());
                },
                in -> TimestampData.fromEpochMillis(in.readLong(), in.readInt())));
      case DECIMAL:
        DecimalType decimal = (DecimalType) type;
        int precision = decimal.getPrecision();
        int scale = decimal.getScale();
        return Optional.of(
            codec(
                (v, out) -> bytes(((DecimalData) v).toUnscaledBytes(), out),
                in -> DecimalData.fromUnscaledBytes(bytes(in), precision, scale)));
      case ROW:
        RowType rowType = (RowType) type;
        int fields = rowType.getFieldCount();
        int[] positions = new int[fields];
        for (int i = 0; i < fields; i++) {
          positions[i] = i;
        }
        // Nested NOT NULL fields are checked, with their full path, when the file is written.
        return of(null, rowType.getFieldNames(), fields, positions, rowType.getChildren())
            .map(nested -> codec((v, out) -> nested.write((RowData) v, out), nested::read));
      default:
        return Optional.empty();
    }
  }

  private interface Writer {
    void write(Object value, DataOutputSerializer out) throws IOException;
  }

  private interface Reader {
    Object read(DataInputDeserializer in) throws IOException;
  }

  private static FieldCodec codec(Writer writer, Reader reader) {
    return new FieldCodec() {
      @Override
      public void write(Object value, DataOutputSerializer out) throws IOException {
        writer.write(value, out);
      }

      @Override
      public Object read(DataInputDeserializer in) throws IOException {
        return reader.read(in);
      }
    };
  }

  private static void bytes(byte[] bytes, DataOutputSerializer out) throws IOException {
    out.writeInt(bytes.length);
    out.write(bytes);
  }

  private static byte[] bytes(DataInputDeserializer in) throws IOException {
    byte[] bytes = new byte[in.readInt()];
    in.readFully(bytes);
    return bytes;
  }
}
