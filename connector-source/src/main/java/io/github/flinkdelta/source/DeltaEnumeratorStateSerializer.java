/*
 * Copyright 2026 the flink-delta authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
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
