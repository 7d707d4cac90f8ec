package io.github.flinkdelta.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkdelta.core.parquet.DataFile;
import java.io.IOException;
import java.io.InputStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The state serializers read the bytes every released version wrote (golden files under {@code
 * src/test/resources/state}), round-trip the current version, and refuse unknown versions.
 */
class StateSerializersTest {

  static final DeltaCommittable COMMITTABLE =
      new DeltaCommittable(
          "3f2a-app",
          42,
          List.of(
              new DataFile(
                  "bucket=1/part-00000-a.snappy.parquet",
                  1234,
                  10,
                  partition("bucket", "1"),
                  "{\"numRecords\":10,\"minValues\":{\"id\":1}}"),
              new DataFile(
                  "bucket=__HIVE_DEFAULT_PARTITION__/part-00001-b.snappy.parquet",
                  99,
                  1,
                  partition("bucket", null),
                  "{\"numRecords\":1,\"minValues\":{\"payload\":\""
                      + "ä".repeat(40_000)
                      + "\"}}")));

  @Test
  void committableVersion1GoldenBytesStillDecode() throws IOException {
    DeltaCommittableSerializer serializer = new DeltaCommittableSerializer();
    assertThat(serializer.deserialize(1, golden("delta-committable-v1.bin")))
        .isEqualTo(COMMITTABLE);
    assertThat(serializer.deserialize(serializer.getVersion(), serializer.serialize(COMMITTABLE)))
        .isEqualTo(COMMITTABLE);
  }

  @Test
  void writeResultVersion1GoldenBytesStillDecode() throws IOException {
    DeltaWriteResultSerializer serializer = new DeltaWriteResultSerializer();
    DeltaWriteResult result = new DeltaWriteResult(COMMITTABLE.files());
    assertThat(serializer.deserialize(1, golden("delta-write-result-v1.bin"))).isEqualTo(result);
    assertThat(serializer.deserialize(serializer.getVersion(), serializer.serialize(result)))
        .isEqualTo(result);
  }

  @Test
  void unknownVersionIsRefusedWithWhatToDo() {
    assertThatThrownBy(() -> new DeltaCommittableSerializer().deserialize(7, new byte[0]))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("version 7")
        .hasMessageContaining("Restore with the connector version that wrote it");
  }

  private static Map<String, String> partition(String key, String value) {
    Map<String, String> values = new LinkedHashMap<>();
    values.put(key, value);
    return values;
  }

  private static byte[] golden(String name) throws IOException {
    try (InputStream in = StateSerializersTest.class.getResourceAsStream("/state/" + name)) {
      if (in == null) {
        throw new IOException("missing golden file " + name);
      }
      return in.readAllBytes();
    }
  }
}
