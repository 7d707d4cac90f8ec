/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.deletion;

import java.io.EOFException;
import java.io.IOException;
import org.apache.flink.annotation.Internal;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;

/**
 * Reads the rows a deletion vector removes, checking what its file holds against its descriptor.
 */
@Internal
public final class DeletionVectorReader {

  private DeletionVectorReader() {}

  /**
   * The positions {@code dv} removes: decoded from the descriptor when inline, else read from its
   * record at its offset (0 when absent) in its file. A DV of cardinality 0 is empty and read from
   * nowhere.
   *
   * @param tableRoot the table's root location, which {@code u} DVs' files are relative to
   * @throws IOException when the file cannot be read or ends before the record does
   * @throws IllegalStateException when the record does not match the descriptor: another size, a
   *     wrong checksum, bytes that are no bitmap, or another number of rows
   */
  public static RowPositions read(Configuration conf, String tableRoot, DeletionVectorDescriptor dv)
      throws IOException {
    if (dv.cardinality() == 0) {
      return new RowPositions();
    }
    RowPositions positions;
    String source;
    if (dv.isInline()) {
      source = "the inline deletion vector";
      positions = decode(Z85.decodeBytes(dv.pathOrInlineDv(), dv.sizeInBytes()), source);
    } else {
      Path file = new Path(dv.absolutePath(tableRoot));
      int offset = dv.offset() == null ? 0 : dv.offset();
      source = String.format("the deletion vector at offset %d of %s", offset, file);
      positions = decode(readRecord(conf, file, offset, dv.sizeInBytes(), source), source);
    }
    if (positions.cardinality() != dv.cardinality()) {
      throw new IllegalStateException(
          String.format(
              "%s holds %d rows, but its descriptor says %d (%s)",
              capitalized(source), positions.cardinality(), dv.cardinality(), dv.uniqueId()));
    }
    return positions;
  }

  private static byte[] readRecord(
      Configuration conf, Path file, int offset, int sizeInBytes, String source)
      throws IOException {
    try (FSDataInputStream in = file.getFileSystem(conf).open(file)) {
      in.seek(offset);
      int size = in.readInt();
      if (size != sizeInBytes) {
        throw new IllegalStateException(
            String.format(
                "%s has %d bytes, but its descriptor says %d",
                capitalized(source), size, sizeInBytes));
      }
      byte[] data = new byte[size];
      in.readFully(data);
      int checksum = in.readInt();
      int actual = DeletionVectorWriter.checksum(data);
      if (checksum != actual) {
        throw new IllegalStateException(
            String.format(
                "%s is corrupt: its CRC-32 is %08x, but the file says %08x",
                capitalized(source), actual, checksum));
      }
      return data;
    } catch (EOFException e) {
      throw new IOException(
          String.format(
              "%s is cut short: the file ends before its %d bytes and checksum",
              capitalized(source), sizeInBytes),
          e);
    }
  }

  private static RowPositions decode(byte[] data, String source) {
    try {
      return RowPositions.fromBitmapData(data);
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException(capitalized(source) + " is unreadable: " + e.getMessage(), e);
    }
  }

  private static String capitalized(String source) {
    return Character.toUpperCase(source.charAt(0)) + source.substring(1);
  }
}
