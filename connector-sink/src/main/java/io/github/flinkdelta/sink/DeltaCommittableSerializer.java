package io.github.flinkdelta.sink;

import java.io.IOException;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/** Versioned serializer of {@link DeltaCommittable}, the state the committer restores. */
@Internal
public final class DeltaCommittableSerializer
    implements SimpleVersionedSerializer<DeltaCommittable> {

  /** Version 1 stored files as they are; version 2 deflates them. Both are read. */
  static final int VERSION = 2;

  @Override
  public int getVersion() {
    return VERSION;
  }

  @Override
  public byte[] serialize(DeltaCommittable committable) throws IOException {
    DataOutputSerializer out = new DataOutputSerializer(256);
    DataFileSerialization.writeString(committable.appId(), out);
    out.writeLong(committable.checkpointId());
    DataFileSerialization.writeFilesDeflated(committable.files(), out);
    return out.getCopyOfBuffer();
  }

  @Override
  public DeltaCommittable deserialize(int version, byte[] serialized) throws IOException {
    if (version < 1 || version > VERSION) {
      throw DataFileSerialization.unknownVersion("Delta committable", version, VERSION);
    }
    DataInputDeserializer in = new DataInputDeserializer(serialized);
    String appId = DataFileSerialization.readString(in);
    long checkpointId = in.readLong();
    return new DeltaCommittable(
        appId,
        checkpointId,
        version == 1
            ? DataFileSerialization.readFiles(in)
            : DataFileSerialization.readFilesDeflated(in));
  }
}
