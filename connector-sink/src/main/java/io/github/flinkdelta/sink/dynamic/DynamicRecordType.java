/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.dynamic;

import io.github.flinkdelta.common.StateStrings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.ExecutionConfig;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalSerializers;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeParser;

/**
 * The type of the records a dynamic sink sends from its generator to its upsert writers, keyed by
 * table and key. Each record carries its table's description (name, row type as Flink's
 * serializable string, partition columns, key, properties) before its row, so that any writer can
 * take any record; both ends keep what they built for a description they met before, so a record
 * costs a lookup, not a parse.
 */
@Internal
public final class DynamicRecordType extends TypeInformation<DynamicRecord> {

  private static final long serialVersionUID = 1L;

  static final DynamicRecordType INSTANCE = new DynamicRecordType();

  /** Descriptions each end keeps at most; beyond it, they start afresh. */
  private static final int MAX_CACHED = 10_000;

  private DynamicRecordType() {}

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
  public Class<DynamicRecord> getTypeClass() {
    return DynamicRecord.class;
  }

  @Override
  public boolean isKeyType() {
    return false;
  }

  @Override
  public TypeSerializer<DynamicRecord> createSerializer(SerializerConfig config) {
    return new Serializer();
  }

  /** What Flink 1.20 calls; Flink 2 has only the method above. */
  public TypeSerializer<DynamicRecord> createSerializer(ExecutionConfig config) {
    return new Serializer();
  }

  @Override
  public String toString() {
    return "DynamicDeltaRecord";
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof DynamicRecordType;
  }

  @Override
  public int hashCode() {
    return DynamicRecordType.class.hashCode();
  }

  @Override
  public boolean canEqual(Object other) {
    return other instanceof DynamicRecordType;
  }

  /** A table's description and the serializer of its rows. */
  private record Described(DynamicTable table, byte[] description, TypeSerializer<RowData> rows) {}

  /** Not thread-safe: {@link #duplicate()} gives each user its own caches. */
  static final class Serializer extends TypeSerializer<DynamicRecord> {

    private static final long serialVersionUID = 1L;

    private transient Map<DynamicTable, Described> byTable;
    private transient Map<String, Described> byDescription;

    @Override
    public boolean isImmutableType() {
      return false;
    }

    @Override
    public TypeSerializer<DynamicRecord> duplicate() {
      return new Serializer();
    }

    @Override
    public DynamicRecord createInstance() {
      return null;
    }

    @Override
    public DynamicRecord copy(DynamicRecord from) {
      try {
        return new DynamicRecord(from.table(), describe(from.table()).rows().copy(from.row()));
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot describe table " + from.table().name(), e);
      }
    }

    @Override
    public DynamicRecord copy(DynamicRecord from, DynamicRecord reuse) {
      return copy(from);
    }

    @Override
    public int getLength() {
      return -1;
    }

    @Override
    public void serialize(DynamicRecord record, DataOutputView target) throws IOException {
      Described described = describe(record.table());
      target.writeInt(described.description().length);
      target.write(described.description());
      described.rows().serialize(record.row(), target);
    }

    @Override
    public DynamicRecord deserialize(DataInputView source) throws IOException {
      byte[] description = new byte[source.readInt()];
      source.readFully(description);
      Described described = parse(description);
      return new DynamicRecord(described.table(), described.rows().deserialize(source));
    }

    @Override
    public DynamicRecord deserialize(DynamicRecord reuse, DataInputView source) throws IOException {
      return deserialize(source);
    }

    @Override
    public void copy(DataInputView source, DataOutputView target) throws IOException {
      serialize(deserialize(source), target);
    }

    private Described describe(DynamicTable table) throws IOException {
      if (byTable == null) {
        byTable = new IdentityHashMap<>();
      }
      Described described = byTable.get(table);
      if (described == null) {
        if (byTable.size() >= MAX_CACHED) {
          byTable.clear();
        }
        described = new Described(table, description(table), rowsOf(table));
        byTable.put(table, described);
      }
      return described;
    }

    private Described parse(byte[] description) throws IOException {
      if (byDescription == null) {
        byDescription = new HashMap<>();
      }
      String key = new String(description, StandardCharsets.ISO_8859_1);
      Described described = byDescription.get(key);
      if (described == null) {
        if (byDescription.size() >= MAX_CACHED) {
          byDescription.clear();
        }
        DynamicTable table = table(description);
        described = new Described(table, description, rowsOf(table));
        byDescription.put(key, described);
      }
      return described;
    }

    @SuppressWarnings("unchecked")
    private static TypeSerializer<RowData> rowsOf(DynamicTable table) {
      return (TypeSerializer<RowData>)
          (TypeSerializer<?>) InternalSerializers.create(table.rowType());
    }

    private static byte[] description(DynamicTable table) throws IOException {
      DataOutputSerializer out = new DataOutputSerializer(256);
      StateStrings.write(table.name(), out);
      StateStrings.write(table.rowType().asSerializableString(), out);
      writeList(table.partitionColumns(), out);
      writeList(table.primaryKey(), out);
      out.writeInt(table.properties().size());
      for (Map.Entry<String, String> property : table.properties().entrySet()) {
        StateStrings.write(property.getKey(), out);
        StateStrings.write(property.getValue(), out);
      }
      return out.getCopyOfBuffer();
    }

    private static DynamicTable table(byte[] description) throws IOException {
      DataInputDeserializer in = new DataInputDeserializer(description);
      String name = StateStrings.read(in, "dynamic record");
      RowType rowType =
          (RowType)
              LogicalTypeParser.parse(
                  StateStrings.read(in, "dynamic record"),
                  Thread.currentThread().getContextClassLoader());
      List<String> partitions = readList(in);
      List<String> key = readList(in);
      int count = in.readInt();
      Map<String, String> properties = new LinkedHashMap<>();
      for (int i = 0; i < count; i++) {
        properties.put(
            StateStrings.read(in, "dynamic record"), StateStrings.read(in, "dynamic record"));
      }
      return new DynamicTable(name, rowType, partitions, key, properties);
    }

    private static void writeList(List<String> values, DataOutputView out) throws IOException {
      out.writeInt(values.size());
      for (String value : values) {
        StateStrings.write(value, out);
      }
    }

    private static List<String> readList(DataInputDeserializer in) throws IOException {
      int count = in.readInt();
      List<String> values = new ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        values.add(StateStrings.read(in, "dynamic record"));
      }
      return values;
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof Serializer;
    }

    @Override
    public int hashCode() {
      return Serializer.class.hashCode();
    }

    @Override
    public TypeSerializerSnapshot<DynamicRecord> snapshotConfiguration() {
      return new Snapshot();
    }
  }

  /** The serializer's snapshot; the serializer has no configuration. */
  public static final class Snapshot extends SimpleTypeSerializerSnapshot<DynamicRecord> {
    public Snapshot() {
      super(Serializer::new);
    }
  }
}
