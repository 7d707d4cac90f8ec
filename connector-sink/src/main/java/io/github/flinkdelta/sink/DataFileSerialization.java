package io.github.flinkdelta.sink;

import io.github.flinkdelta.core.parquet.DataFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Field-by-field encoding of {@link DataFile}s shared by the state serializers. Strings are
 * length-prefixed UTF-8, so there is no 64 KB limit on statistics or paths.
 */
final class DataFileSerialization {

  private DataFileSerialization() {}

  static void writeFiles(List<DataFile> files, DataOutputView out) throws IOException {
    out.writeInt(files.size());
    for (DataFile file : files) {
      writeString(file.path(), out);
      out.writeLong(file.sizeBytes());
      out.writeLong(file.numRecords());
      out.writeInt(file.partitionValues().size());
      for (Map.Entry<String, String> value : file.partitionValues().entrySet()) {
        writeString(value.getKey(), out);
        out.writeBoolean(value.getValue() != null);
        if (value.getValue() != null) {
          writeString(value.getValue(), out);
        }
      }
      writeString(file.statsJson(), out);
    }
  }

  static List<DataFile> readFiles(DataInputView in) throws IOException {
    int count = in.readInt();
    List<DataFile> files = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      String path = readString(in);
      long size = in.readLong();
      long records = in.readLong();
      int partitions = in.readInt();
      Map<String, String> values = new LinkedHashMap<>();
      for (int p = 0; p < partitions; p++) {
        String key = readString(in);
        values.put(key, in.readBoolean() ? readString(in) : null);
      }
      files.add(new DataFile(path, size, records, values, readString(in)));
    }
    return files;
  }

  /** The error for state written by another version of the connector. */
  static IOException unknownVersion(String state, int version, int supported) {
    return new IOException(
        String.format(
            "Cannot read %s state version %d; this connector reads version %d. Restore with the"
                + " connector version that wrote it.",
            state, version, supported));
  }

  static void writeString(String value, DataOutputView out) throws IOException {
    byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
    out.writeInt(bytes.length);
    out.write(bytes);
  }

  static String readString(DataInputView in) throws IOException {
    byte[] bytes = new byte[in.readInt()];
    in.readFully(bytes);
    return new String(bytes, StandardCharsets.UTF_8);
  }
}
