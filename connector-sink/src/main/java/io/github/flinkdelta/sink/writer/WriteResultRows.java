/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.writer;

import java.io.IOException;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.ExecutionConfig;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.base.TypeSerializerSingleton;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;

/**
 * The rows that carry an upsert writer's {@link DeltaWriteResult} (serialized, in field 0) to the
 * sink's writer: the sink takes {@link RowData}, so its pre-write topology hands on rows. Their
 * type has a serializer of its own, so that neither Kryo nor Flink's table runtime is needed (a job
 * may disable generic types, and a DataStream job may lack the table runtime).
 */
@Internal
public final class WriteResultRows extends TypeInformation<RowData> {

  private static final long serialVersionUID = 1L;

  public static final WriteResultRows TYPE = new WriteResultRows();

  private WriteResultRows() {}

  /** The row that carries {@code serializedResult}. */
  public static RowData of(byte[] serializedResult) {
    return GenericRowData.of((Object) serializedResult);
  }

  @Override
  public boolean isBasicType() {
    return false;
  }

  @Override
  public boolean isTupleType() {
    return false;
  }

  @Override
  public int getArity() {
    return 1;
  }

  @Override
  public int getTotalFields() {
    return 1;
  }

  @Override
  public Class<RowData> getTypeClass() {
    return RowData.class;
  }

  @Override
  public boolean isKeyType() {
    return false;
  }

  @Override
  public TypeSerializer<RowData> createSerializer(SerializerConfig config) {
    return Serializer.INSTANCE;
  }

  /** What Flink 1.20 calls; Flink 2 has only the method above. */
  public TypeSerializer<RowData> createSerializer(ExecutionConfig config) {
    return Serializer.INSTANCE;
  }

  @Override
  public String toString() {
    return "DeltaWriteResultRow";
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof WriteResultRows;
  }

  @Override
  public int hashCode() {
    return WriteResultRows.class.hashCode();
  }

  @Override
  public boolean canEqual(Object other) {
    return other instanceof WriteResultRows;
  }

  /** Writes the carried bytes with their length. */
  static final class Serializer extends TypeSerializerSingleton<RowData> {

    private static final long serialVersionUID = 1L;
    static final Serializer INSTANCE = new Serializer();

    @Override
    public boolean isImmutableType() {
      return false;
    }

    @Override
    public RowData createInstance() {
      return of(new byte[0]);
    }

    @Override
    public RowData copy(RowData from) {
      return of(from.getBinary(0).clone());
    }

    @Override
    public RowData copy(RowData from, RowData reuse) {
      return copy(from);
    }

    @Override
    public int getLength() {
      return -1;
    }

    @Override
    public void serialize(RowData record, DataOutputView target) throws IOException {
      byte[] bytes = record.getBinary(0);
      target.writeInt(bytes.length);
      target.write(bytes);
    }

    @Override
    public RowData deserialize(DataInputView source) throws IOException {
      byte[] bytes = new byte[source.readInt()];
      source.readFully(bytes);
      return of(bytes);
    }

    @Override
    public RowData deserialize(RowData reuse, DataInputView source) throws IOException {
      return deserialize(source);
    }

    @Override
    public void copy(DataInputView source, DataOutputView target) throws IOException {
      int length = source.readInt();
      target.writeInt(length);
      target.write(source, length);
    }

    @Override
    public TypeSerializerSnapshot<RowData> snapshotConfiguration() {
      return new Snapshot();
    }
  }

  /** The serializer's snapshot; the serializer has no configuration. */
  public static final class Snapshot extends SimpleTypeSerializerSnapshot<RowData> {
    public Snapshot() {
      super(() -> Serializer.INSTANCE);
    }
  }
}
