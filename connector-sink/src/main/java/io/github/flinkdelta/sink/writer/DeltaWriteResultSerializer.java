/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.writer;

import io.github.flinkdelta.core.write.DataFiles;
import io.github.flinkdelta.sink.internal.DataFileSerialization;
import java.io.IOException;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/** Versioned serializer of {@link DeltaWriteResult}. */
@Internal
public final class DeltaWriteResultSerializer
    implements SimpleVersionedSerializer<DeltaWriteResult> {

  @Override
  public int getVersion() {
    return DataFileSerialization.VERSION;
  }

  @Override
  public byte[] serialize(DeltaWriteResult result) throws IOException {
    DataOutputSerializer out = new DataOutputSerializer(256);
    result.files().writeTo(out);
    result.deletes().writeTo(out);
    return out.getCopyOfBuffer();
  }

  @Override
  public DeltaWriteResult deserialize(int version, byte[] serialized) throws IOException {
    DataFileSerialization.checkVersion("Delta write result", version);
    DataInputDeserializer in = new DataInputDeserializer(serialized);
    DataFiles files = DataFileSerialization.readFiles(in);
    return new DeltaWriteResult(files, DataFileSerialization.readDeletes(version, in));
  }
}
