/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.source;

import io.github.flinkdelta.common.StateStrings;
import io.github.flinkdelta.core.deletion.DeletionVectorDescriptor;
import io.github.flinkdelta.core.read.ReadFile;
import io.github.flinkdelta.core.read.WatermarkColumn;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Versioned serializer of {@link DeltaSplit}, the state of readers and of the enumerator. Version 2
 * holds a file's least watermark timestamp where version 1 held its row count, which nothing read:
 * splits of version 1 are read with no timestamp.
 */
@Internal
public final class DeltaSplitSerializer implements SimpleVersionedSerializer<DeltaSplit> {

  static final int VERSION = 2;

  private static final int WITH_ROW_COUNT = 1;

  @Override
  public int getVersion() {
    return VERSION;
  }

  @Override
  public byte[] serialize(DeltaSplit split) throws IOException {
    DataOutputSerializer out = new DataOutputSerializer(256);
    write(split, out);
    return out.getCopyOfBuffer();
  }

  @Override
  public DeltaSplit deserialize(int version, byte[] serialized) throws IOException {
    checkVersion(version);
    return read(new DataInputDeserializer(serialized), version);
  }

  static void checkVersion(int version) throws IOException {
    if (version != VERSION && version != WITH_ROW_COUNT) {
      throw new IOException(
          "Cannot read Delta source state version "
              + version
              + "; this connector reads versions "
              + WITH_ROW_COUNT
              + " to "
              + VERSION
              + ". Restore with the connector version that wrote it.");
    }
  }

  static void write(DeltaSplit split, DataOutputView out) throws IOException {
    ReadFile file = split.file();
    StateStrings.write(file.path(), out);
    out.writeLong(file.size());
    out.writeLong(file.modificationTime());
    out.writeInt(file.partitionValues().size());
    for (Map.Entry<String, String> value : file.partitionValues().entrySet()) {
      StateStrings.write(value.getKey(), out);
      out.writeBoolean(value.getValue() != null);
      if (value.getValue() != null) {
        StateStrings.write(value.getValue(), out);
      }
    }
    writeVector(file.deletionVector(), out);
    out.writeLong(file.version());
    out.writeLong(file.minTimestamp());
    out.writeByte(split.rows().ordinal());
    writeVector(split.before(), out);
    out.writeLong(split.position());
  }

  private static void writeVector(DeletionVectorDescriptor dv, DataOutputView out)
      throws IOException {
    out.writeBoolean(dv != null);
    if (dv != null) {
      StateStrings.write(dv.storageType(), out);
      StateStrings.write(dv.pathOrInlineDv(), out);
      out.writeInt(dv.offset() == null ? -1 : dv.offset());
      out.writeInt(dv.sizeInBytes());
      out.writeLong(dv.cardinality());
    }
  }

  private static DeletionVectorDescriptor readVector(DataInputDeserializer in) throws IOException {
    if (!in.readBoolean()) {
      return null;
    }
    String storageType = StateStrings.read(in, "source");
    String pathOrInline = StateStrings.read(in, "source");
    int offset = in.readInt();
    return new DeletionVectorDescriptor(
        storageType, pathOrInline, offset < 0 ? null : offset, in.readInt(), in.readLong());
  }

  static DeltaSplit read(DataInputDeserializer in, int serializedVersion) throws IOException {
    String path = StateStrings.read(in, "source");
    long size = in.readLong();
    long modificationTime = in.readLong();
    int partitions = in.readInt();
    Map<String, String> partitionValues = new HashMap<>();
    for (int i = 0; i < partitions; i++) {
      String key = StateStrings.read(in, "source");
      partitionValues.put(key, in.readBoolean() ? StateStrings.read(in, "source") : null);
    }
    DeletionVectorDescriptor dv = readVector(in);
    long version = in.readLong();
    long minTimestamp = in.readLong();
    if (serializedVersion == WITH_ROW_COUNT) {
      minTimestamp = WatermarkColumn.UNKNOWN;
    }
    ReadFile file =
        new ReadFile(path, size, modificationTime, partitionValues, dv, version, minTimestamp);
    int rows = in.readByte();
    if (rows < 0 || rows >= DeltaSplit.Rows.values().length) {
      throw new IOException("Corrupt Delta source state: split rows " + rows);
    }
    return new DeltaSplit(file, DeltaSplit.Rows.values()[rows], readVector(in), in.readLong());
  }
}
