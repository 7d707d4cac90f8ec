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

  /** See {@link DataFileSerialization} for what each version holds. All are read. */
  static final int VERSION = 3;

  @Override
  public int getVersion() {
    return VERSION;
  }

  @Override
  public byte[] serialize(DeltaCommittable committable) throws IOException {
    DataOutputSerializer out = new DataOutputSerializer(256);
    DataFileSerialization.writeString(committable.appId(), out);
    out.writeLong(committable.checkpointId());
    committable.files().writeTo(out);
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
    return new DeltaCommittable(appId, checkpointId, DataFileSerialization.readFiles(version, in));
  }
}
