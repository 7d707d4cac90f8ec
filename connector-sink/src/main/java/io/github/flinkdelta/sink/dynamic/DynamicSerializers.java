/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.dynamic;

import io.github.flinkdelta.common.StateStrings;
import io.github.flinkdelta.core.upsert.FileDeletes;
import io.github.flinkdelta.core.write.DataFiles;
import io.github.flinkdelta.sink.committer.DeltaCommittableSerializer;
import io.github.flinkdelta.sink.internal.DataFileSerialization;
import java.io.IOException;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/**
 * The versioned serializers of a dynamic sink's write results and committables: the table's name
 * before what the single-table sink writes, in the state version of {@link DataFileSerialization},
 * and whether the table is truncated or dropped after them.
 */
final class DynamicSerializers {

  private DynamicSerializers() {}

  /** Serializer of {@link DynamicWriteResult}. */
  static final class WriteResults implements SimpleVersionedSerializer<DynamicWriteResult> {

    @Override
    public int getVersion() {
      return DataFileSerialization.VERSION;
    }

    @Override
    public byte[] serialize(DynamicWriteResult result) throws IOException {
      DataOutputSerializer out = new DataOutputSerializer(256);
      StateStrings.write(result.table(), out);
      result.files().writeTo(out);
      result.deletes().writeTo(out);
      out.writeBoolean(result.truncates());
      writeDrop(result.dropsTableId(), out);
      return out.getCopyOfBuffer();
    }

    @Override
    public DynamicWriteResult deserialize(int version, byte[] serialized) throws IOException {
      DataFileSerialization.checkVersion("dynamic Delta write result", version);
      DataInputDeserializer in = new DataInputDeserializer(serialized);
      String table = StateStrings.read(in, "dynamic sink");
      DataFiles files = DataFileSerialization.readFiles(in);
      FileDeletes deletes = DataFileSerialization.readDeletes(version, in);
      return new DynamicWriteResult(table, files, deletes, readTruncates(in), readDrop(in));
    }
  }

  /** Serializer of {@link DynamicCommittable}, the state the committer restores. */
  static final class Committables implements SimpleVersionedSerializer<DynamicCommittable> {

    private final DeltaCommittableSerializer tableCommittables = new DeltaCommittableSerializer();

    @Override
    public int getVersion() {
      return tableCommittables.getVersion();
    }

    @Override
    public byte[] serialize(DynamicCommittable committable) throws IOException {
      byte[] table = tableCommittables.serialize(committable.committable());
      DataOutputSerializer out = new DataOutputSerializer(table.length + 64);
      StateStrings.write(committable.table(), out);
      out.writeInt(table.length);
      out.write(table);
      out.writeBoolean(committable.truncates());
      writeDrop(committable.dropsTableId(), out);
      return out.getCopyOfBuffer();
    }

    @Override
    public DynamicCommittable deserialize(int version, byte[] serialized) throws IOException {
      DataFileSerialization.checkVersion("dynamic Delta committable", version);
      DataInputDeserializer in = new DataInputDeserializer(serialized);
      String table = StateStrings.read(in, "dynamic sink");
      byte[] committable = new byte[in.readInt()];
      in.readFully(committable);
      return new DynamicCommittable(
          table,
          tableCommittables.deserialize(version, committable),
          readTruncates(in),
          readDrop(in));
    }
  }

  private static void writeDrop(String dropsTableId, DataOutputSerializer out) throws IOException {
    out.writeBoolean(dropsTableId != null);
    if (dropsTableId != null) {
      StateStrings.write(dropsTableId, out);
    }
  }

  /** The id of the table dropped, after the truncation flag; absent (null) in earlier state. */
  private static String readDrop(DataInputDeserializer in) throws IOException {
    return in.available() > 0 && in.readBoolean() ? StateStrings.read(in, "dynamic sink") : null;
  }

  /** The truncation flag after the deletes; absent (false) in state of an earlier version. */
  private static boolean readTruncates(DataInputDeserializer in) throws IOException {
    return in.available() > 0 && in.readBoolean();
  }
}
