package io.github.flinkdelta.sink;

import io.github.flinkdelta.core.parquet.DataFiles;
import java.io.IOException;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/** Versioned serializer of {@link DeltaWriteResult}. */
@Internal
public final class DeltaWriteResultSerializer
    implements SimpleVersionedSerializer<DeltaWriteResult> {

  /** See {@link DataFileSerialization} for what each version holds. All are read. */
  static final int VERSION = 3;

  @Override
  public int getVersion() {
    return VERSION;
  }

  @Override
  public byte[] serialize(DeltaWriteResult result) throws IOException {
    DataOutputSerializer out = new DataOutputSerializer(256);
    result.files().writeTo(out);
    return out.getCopyOfBuffer();
  }

  @Override
  public DeltaWriteResult deserialize(int version, byte[] serialized) throws IOException {
    if (version < 1 || version > VERSION) {
      throw DataFileSerialization.unknownVersion("Delta write result", version, VERSION);
    }
    DataInputDeserializer in = new DataInputDeserializer(serialized);
    DataFiles files = DataFileSerialization.readFiles(version, in);
    return new DeltaWriteResult(files);
  }
}
