/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.committer;

import io.github.flinkdelta.common.StateStrings;
import io.github.flinkdelta.core.upsert.FileDeletes;
import io.github.flinkdelta.core.write.DataFiles;
import io.github.flinkdelta.sink.internal.DataFileSerialization;
import java.io.IOException;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/** Versioned serializer of {@link DeltaCommittable}, the state the committer restores. */
@Internal
public final class DeltaCommittableSerializer
    implements SimpleVersionedSerializer<DeltaCommittable> {

  @Override
  public int getVersion() {
    return DataFileSerialization.VERSION;
  }

  @Override
  public byte[] serialize(DeltaCommittable committable) throws IOException {
    DataOutputSerializer out = new DataOutputSerializer(256);
    StateStrings.write(committable.appId(), out);
    out.writeLong(committable.checkpointId());
    committable.files().writeTo(out);
    committable.deletes().writeTo(out);
    out.writeLong(committable.createdMillis());
    return out.getCopyOfBuffer();
  }

  @Override
  public DeltaCommittable deserialize(int version, byte[] serialized) throws IOException {
    DataFileSerialization.checkVersion("Delta committable", version);
    DataInputDeserializer in = new DataInputDeserializer(serialized);
    String appId = StateStrings.read(in, "sink");
    long checkpointId = in.readLong();
    DataFiles files = DataFileSerialization.readFiles(in);
    FileDeletes deletes = DataFileSerialization.readDeletes(version, in);
    // Earlier versions did not record when the files were handed on.
    long created = version >= DataFileSerialization.VERSION ? in.readLong() : 0;
    return new DeltaCommittable(appId, checkpointId, files, deletes, created);
  }
}
