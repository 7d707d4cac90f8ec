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

  /** Version 1 stored files as they are; version 2 deflates them. Both are read. */
  static final int VERSION = 2;

  @Override
  public int getVersion() {
    return VERSION;
  }

  @Override
  public byte[] serialize(DeltaWriteResult result) throws IOException {
    DataOutputSerializer out = new DataOutputSerializer(256);
    DataFileSerialization.writeFilesDeflated(result.files(), out);
    return out.getCopyOfBuffer();
  }

  @Override
  public DeltaWriteResult deserialize(int version, byte[] serialized) throws IOException {
    if (version < 1 || version > VERSION) {
      throw DataFileSerialization.unknownVersion("Delta write result", version, VERSION);
    }
    DataInputDeserializer in = new DataInputDeserializer(serialized);
    return new DeltaWriteResult(
        version == 1
            ? DataFileSerialization.readFiles(in)
            : DataFileSerialization.readFilesDeflated(in));
  }
}
