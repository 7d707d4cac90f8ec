/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.source;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/** Versioned serializer of {@link DeltaEnumeratorState}. */
@Internal
public final class DeltaEnumeratorStateSerializer
    implements SimpleVersionedSerializer<DeltaEnumeratorState> {

  @Override
  public int getVersion() {
    return DeltaSplitSerializer.VERSION;
  }

  @Override
  public byte[] serialize(DeltaEnumeratorState state) throws IOException {
    DataOutputSerializer out = new DataOutputSerializer(1024);
    out.writeLong(state.nextVersion());
    out.writeInt(state.pending().size());
    for (DeltaSplit split : state.pending()) {
      DeltaSplitSerializer.write(split, out);
    }
    return out.getCopyOfBuffer();
  }

  @Override
  public DeltaEnumeratorState deserialize(int version, byte[] serialized) throws IOException {
    DeltaSplitSerializer.checkVersion(version);
    DataInputDeserializer in = new DataInputDeserializer(serialized);
    long nextVersion = in.readLong();
    int count = in.readInt();
    List<DeltaSplit> pending = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      pending.add(DeltaSplitSerializer.read(in, version));
    }
    return new DeltaEnumeratorState(nextVersion, pending);
  }
}
