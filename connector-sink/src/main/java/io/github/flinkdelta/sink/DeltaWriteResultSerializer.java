package io.github.flinkdelta.sink;

import java.io.IOException;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/** Versioned serializer of {@link DeltaWriteResult}. */
@Internal
public final class DeltaWriteResultSerializer
    implements SimpleVersionedSerializer<DeltaWriteResult> {

  static final int VERSION = 1;

  @Override
  public int getVersion() {
    return VERSION;
  }

  @Override
  public byte[] serialize(DeltaWriteResult result) throws IOException {
    DataOutputSerializer out = new DataOutputSerializer(256);
    DataFileSerialization.writeFiles(result.files(), out);
    return out.getCopyOfBuffer();
  }

  @Override
  public DeltaWriteResult deserialize(int version, byte[] serialized) throws IOException {
    if (version != VERSION) {
      throw DataFileSerialization.unknownVersion("Delta write result", version, VERSION);
    }
    return new DeltaWriteResult(
        DataFileSerialization.readFiles(new DataInputDeserializer(serialized)));
  }
}
