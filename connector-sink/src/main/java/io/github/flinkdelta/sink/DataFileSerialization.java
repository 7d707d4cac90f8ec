package io.github.flinkdelta.sink;

import io.github.flinkdelta.core.parquet.DataFile;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Field-by-field encoding of {@link DataFile}s shared by the state serializers. Strings are
 * length-prefixed UTF-8, so there is no 64 KB limit on statistics or paths. Since state version 2
 * the encoded files are deflated: statistics repeat the same column names and similar values from
 * file to file and shrink several times, which keeps checkpoints of many files small.
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

  /** The files, encoded and deflated (state version 2). */
  static void writeFilesDeflated(List<DataFile> files, DataOutputView out) throws IOException {
    DataOutputSerializer encoded = new DataOutputSerializer(256 + files.size() * 512);
    writeFiles(files, encoded);
    Deflater deflater = new Deflater(Deflater.BEST_SPEED);
    try {
      deflater.setInput(encoded.getSharedBuffer(), 0, encoded.length());
      deflater.finish();
      ByteArrayOutputStream deflated = new ByteArrayOutputStream(encoded.length() / 4 + 64);
      byte[] chunk = new byte[64 * 1024];
      while (!deflater.finished()) {
        deflated.write(chunk, 0, deflater.deflate(chunk));
      }
      out.writeInt(encoded.length());
      out.writeInt(deflated.size());
      out.write(deflated.toByteArray());
    } finally {
      deflater.end();
    }
  }

  /** Reads what {@link #writeFilesDeflated} wrote. */
  static List<DataFile> readFilesDeflated(DataInputView in) throws IOException {
    byte[] encoded = new byte[in.readInt()];
    byte[] deflated = new byte[in.readInt()];
    in.readFully(deflated);
    Inflater inflater = new Inflater();
    try {
      inflater.setInput(deflated);
      int read = 0;
      while (read < encoded.length) {
        int n = inflater.inflate(encoded, read, encoded.length - read);
        if (n == 0 && (inflater.finished() || inflater.needsInput())) {
          throw new IOException("Corrupt sink state: deflated files end early");
        }
        read += n;
      }
      // Reading the stream's end checks its checksum.
      if (!inflater.finished() && (inflater.inflate(new byte[1]) != 0 || !inflater.finished())) {
        throw new IOException("Corrupt sink state: deflated files run past their length");
      }
    } catch (DataFormatException e) {
      throw new IOException("Corrupt sink state: " + e.getMessage(), e);
    } finally {
      inflater.end();
    }
    return readFiles(new DataInputDeserializer(encoded));
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

  /** The error for state written by a newer version of the connector. */
  static IOException unknownVersion(String state, int version, int supported) {
    return new IOException(
        String.format(
            "Cannot read %s state version %d; this connector reads versions 1 to %d. Restore with"
                + " the connector version that wrote it.",
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
