/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.write;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInput;
import java.io.DataInputStream;
import java.io.DataOutput;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.Inflater;
import java.util.zip.InflaterInputStream;
import java.util.zip.ZipException;

/**
 * The encoding {@link DataFiles} keeps files in: each file's fields one by one, with
 * length-prefixed UTF-8 strings (no 64 KB limit), deflated in chunks that carry their file, row and
 * byte counts.
 */
final class DataFileCodec {

  static final int STREAM_BUFFER_BYTES = 64 * 1024;

  /** Above this, bytes read from state are read in steps, so a garbled length cannot OOM. */
  private static final int DIRECT_READ_BYTES = 1 << 20;

  private DataFileCodec() {}

  /** Files deflated together, with their counts; {@code encodedLength} is before deflating. */
  record Chunk(int size, long numRecords, long sizeBytes, int encodedLength, byte[] deflated) {

    InputStream inflating(Inflater inflater) {
      return new InflaterInputStream(
          new ByteArrayInputStream(deflated), inflater, STREAM_BUFFER_BYTES);
    }

    /**
     * Decodes the chunk once: it must hold exactly its count of files, with its rows and bytes,
     * inflate to its length and pass its checksum. The counts are outside the checksum, and a wrong
     * count would otherwise drop files silently.
     */
    void verify() throws IOException {
      Inflater inflater = new Inflater();
      try (InputStream in = inflating(inflater)) {
        DataInputStream files = new DataInputStream(in);
        long records = 0;
        long bytes = 0;
        for (int i = 0; i < size; i++) {
          DataFile file = readFile(files);
          records += file.numRecords();
          bytes += file.sizeBytes();
        }
        if (in.read() != -1 || !inflater.finished()) {
          throw corrupt("a chunk holds more than its " + size + " files");
        }
        if (records != numRecords || bytes != sizeBytes) {
          throw corrupt("the files' rows or bytes do not match their chunk's counts");
        }
        if (inflater.getBytesWritten() != encodedLength) {
          throw corrupt(
              "files inflate to " + inflater.getBytesWritten() + " bytes, not " + encodedLength);
        }
      } catch (EOFException | ZipException e) {
        throw corrupt("the files do not decode (" + e.getMessage() + ")");
      } finally {
        inflater.end();
      }
    }
  }

  static IOException corrupt(String detail) {
    return new IOException("Corrupt sink state: " + detail);
  }

  static byte[] readBytes(DataInput in, int length) throws IOException {
    if (length <= DIRECT_READ_BYTES) {
      byte[] bytes = new byte[length];
      in.readFully(bytes);
      return bytes;
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(DIRECT_READ_BYTES);
    byte[] step = new byte[DIRECT_READ_BYTES];
    for (int left = length; left > 0; ) {
      int n = Math.min(left, step.length);
      in.readFully(step, 0, n);
      bytes.write(step, 0, n);
      left -= n;
    }
    return bytes.toByteArray();
  }

  static void writeFile(DataFile file, DataOutput out) throws IOException {
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

  static DataFile readFile(DataInput in) throws IOException {
    String path = readString(in);
    long size = in.readLong();
    long records = in.readLong();
    int partitions = in.readInt();
    if (partitions < 0) {
      throw corrupt("negative partition count " + partitions);
    }
    Map<String, String> values = new LinkedHashMap<>();
    for (int p = 0; p < partitions; p++) {
      String key = readString(in);
      values.put(key, in.readBoolean() ? readString(in) : null);
    }
    return new DataFile(path, size, records, values, readString(in));
  }

  /** Length-prefixed UTF-8, so paths and statistics have no 64 KB limit. */
  private static void writeString(String value, DataOutput out) throws IOException {
    byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
    out.writeInt(bytes.length);
    out.write(bytes);
  }

  private static String readString(DataInput in) throws IOException {
    int length = in.readInt();
    if (length < 0) {
      throw corrupt("negative string length " + length);
    }
    return new String(readBytes(in, length), StandardCharsets.UTF_8);
  }
}
