package io.github.flinkdelta.sink;

import io.github.flinkdelta.core.parquet.DataFiles;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.zip.Inflater;
import java.util.zip.InflaterInputStream;
import java.util.zip.ZipException;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputView;

/**
 * The state formats of data files, shared by the state serializers:
 *
 * <ul>
 *   <li>version 1: the files in their plain encoding ({@link DataFiles#readEncoded});
 *   <li>version 2: an encoded length, a deflated length, and the plain encoding deflated;
 *   <li>version 3: {@link DataFiles} as held in memory, deflated in chunks with their counts
 *       ({@link DataFiles#writeTo}), so neither writing nor reading decodes a file.
 * </ul>
 */
final class DataFileSerialization {

  private DataFileSerialization() {}

  /** Reads the files of state written in {@code version}. */
  static DataFiles readFiles(int version, DataInputDeserializer in) throws IOException {
    try {
      return switch (version) {
        case 1 -> DataFiles.readEncoded(in);
        case 2 -> readVersion2(in);
        default -> DataFiles.readFrom(in);
      };
    } catch (EOFException e) {
      throw new IOException("Corrupt sink state: the data files end early", e);
    }
  }

  private static DataFiles readVersion2(DataInputDeserializer in) throws IOException {
    in.readInt(); // the encoded length
    int length = in.readInt();
    if (length < 0 || length > in.available()) {
      throw new IOException("Corrupt sink state: deflated files of " + length + " bytes");
    }
    byte[] deflated = new byte[length];
    in.readFully(deflated);
    Inflater inflater = new Inflater();
    try (InputStream inflating =
        new InflaterInputStream(new ByteArrayInputStream(deflated), inflater)) {
      DataFiles files = DataFiles.readEncoded(new DataInputStream(inflating));
      // Reading to the stream's end checks its checksum.
      if (inflating.read() != -1) {
        throw new IOException("Corrupt sink state: deflated files run past their end");
      }
      return files;
    } catch (EOFException | ZipException e) {
      throw new IOException("Corrupt sink state: " + e.getMessage(), e);
    } finally {
      inflater.end();
    }
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

  static String readString(DataInputDeserializer in) throws IOException {
    int length = in.readInt();
    if (length < 0 || length > in.available()) {
      throw new IOException("Corrupt sink state: a string of " + length + " bytes");
    }
    byte[] bytes = new byte[length];
    in.readFully(bytes);
    return new String(bytes, StandardCharsets.UTF_8);
  }
}
