package io.github.flinkdelta.sink;

import io.github.flinkdelta.core.parquet.DataFile;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.Inflater;
import java.util.zip.InflaterInputStream;
import java.util.zip.ZipException;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataInputViewStreamWrapper;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.flink.core.memory.DataOutputViewStreamWrapper;

/**
 * Field-by-field encoding of {@link DataFile}s shared by the state serializers. Strings are
 * length-prefixed UTF-8, so there is no 64 KB limit on statistics or paths. Since state version 2
 * the encoded files are deflated: statistics repeat the same column names and similar values from
 * file to file and shrink several times, which keeps checkpoints of many files small.
 */
final class DataFileSerialization {

  private static final int BUFFER_BYTES = 64 * 1024;

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

  /**
   * The files, encoded and deflated (state version 2): the encoding streams into the deflater, so
   * only the deflated bytes are ever held, not the encoded ones.
   */
  static void writeFilesDeflated(List<DataFile> files, DataOutputView out) throws IOException {
    ByteArrayOutputStream deflated = new ByteArrayOutputStream(files.size() * 128 + 64);
    Deflater deflater = new Deflater(Deflater.BEST_SPEED);
    long encodedLength;
    try {
      CountingOutputStream encoded =
          new CountingOutputStream(new DeflaterOutputStream(deflated, deflater, BUFFER_BYTES));
      DataOutputViewStreamWrapper view = new DataOutputViewStreamWrapper(encoded);
      writeFiles(files, view);
      view.close();
      encodedLength = encoded.count;
    } finally {
      deflater.end();
    }
    out.writeInt(Math.toIntExact(encodedLength));
    out.writeInt(deflated.size());
    out.write(deflated.toByteArray());
  }

  /** Reads what {@link #writeFilesDeflated} wrote, inflating as it decodes. */
  static List<DataFile> readFilesDeflated(DataInputView in) throws IOException {
    in.readInt(); // the encoded length, for readers that want to size a buffer
    byte[] deflated = new byte[in.readInt()];
    in.readFully(deflated);
    Inflater inflater = new Inflater();
    try (InputStream inflating =
        new InflaterInputStream(new ByteArrayInputStream(deflated), inflater, BUFFER_BYTES)) {
      List<DataFile> files = readFiles(new DataInputViewStreamWrapper(inflating));
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

  /** Counts the bytes written through it. */
  private static final class CountingOutputStream extends FilterOutputStream {
    private long count;

    CountingOutputStream(OutputStream out) {
      super(out);
    }

    @Override
    public void write(int b) throws IOException {
      out.write(b);
      count++;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len);
      count += len;
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
