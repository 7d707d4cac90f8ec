/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.deletion;

import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.UUID;
import java.util.zip.CRC32;
import org.apache.flink.annotation.Internal;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/**
 * Writes deletion vectors into one new file {@code <table root>/deletion_vector_<uuid>.bin}: the
 * format version byte {@value #FORMAT_VERSION}, then per DV its bitmap's size as a big-endian
 * int32, the bitmap ({@link RowPositions#toBitmapData()}) and the CRC-32 of the bitmap as a
 * big-endian int32. A DV's offset is where its size starts.
 *
 * <p>The file is created on the first {@link #write} and never overwrites another; a writer that
 * wrote nothing leaves no file. The file stays under 2 GiB because DV offsets are 32-bit ints. The
 * caller holds the configuration's storage scope open ({@code StorageScopes.lease}) while it
 * writes. Not thread-safe.
 */
@Internal
public final class DeletionVectorWriter implements Closeable {

  /** The first byte of a DV file. */
  static final byte FORMAT_VERSION = 1;

  /** DV offsets and sizes are 32-bit ints. */
  private static final long MAX_LENGTH = Integer.MAX_VALUE;

  private static final int BUFFER_BYTES = 64 * 1024;

  private final Configuration conf;
  private final UUID id;
  private final Path file;
  private final long maxLength;
  private DataOutputStream out;
  private long length;
  private boolean failed;
  private boolean closed;

  private DeletionVectorWriter(Configuration conf, UUID id, Path file, long maxLength) {
    this.conf = conf;
    this.id = id;
    this.file = file;
    this.maxLength = maxLength;
  }

  /**
   * A writer of a new DV file under {@code tableRoot} (a URI or an absolute path); nothing is
   * written until the first {@link #write}.
   */
  public static DeletionVectorWriter create(Configuration conf, String tableRoot) {
    return create(conf, tableRoot, MAX_LENGTH);
  }

  /** A writer of files of at most {@code maxLength} bytes, for tests. */
  static DeletionVectorWriter create(Configuration conf, String tableRoot, long maxLength) {
    UUID id = UUID.randomUUID();
    return new DeletionVectorWriter(conf, id, new Path(tableRoot, fileName(id)), maxLength);
  }

  /**
   * Appends the DV of one data file.
   *
   * @param positions the rows the DV removes; not empty, since a file without deleted rows has no
   *     DV
   * @return its descriptor: storage type {@code u}, no random prefix, the offset of its record
   * @throws IllegalStateException when the file would reach 2 GiB (nothing is written then, and the
   *     DV fits in a new writer's file), or after close or a failed write
   */
  public DeletionVectorDescriptor write(RowPositions positions) throws IOException {
    if (closed || failed) {
      throw new IllegalStateException(
          "Deletion vector file " + file + (closed ? " is closed" : " failed an earlier write"));
    }
    if (positions.isEmpty()) {
      throw new IllegalArgumentException(
          "An empty deletion vector is not written: a data file without deleted rows has none");
    }
    byte[] data = positions.toBitmapData();
    long offset = Math.max(length, 1);
    long end = offset + 4 + data.length + 4;
    if (end > maxLength) {
      throw new IllegalStateException(
          String.format(
              "Deletion vector file %s would grow to %d bytes with a DV of %d bytes; DV offsets"
                  + " are 32-bit, so a file stays under 2 GiB. Write the DV with a new writer.",
              file, end, data.length));
    }
    try {
      if (out == null) {
        out =
            new DataOutputStream(
                new BufferedOutputStream(
                    file.getFileSystem(conf).create(file, false), BUFFER_BYTES));
        out.writeByte(FORMAT_VERSION);
      }
      out.writeInt(data.length);
      out.write(data);
      out.writeInt(checksum(data));
    } catch (IOException | RuntimeException e) {
      failed = true;
      throw e;
    }
    length = end;
    return DeletionVectorDescriptor.onDisk(
        "", id, (int) offset, data.length, positions.cardinality());
  }

  /** The file's path relative to the table root. */
  public String relativePath() {
    return fileName(id);
  }

  /** The bytes written so far, 0 before the first DV. */
  public long length() {
    return length;
  }

  /** Flushes and closes the file, if one was created. */
  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    if (out != null) {
      out.close();
    }
  }

  /** The name of the DV file of {@code id}, as the Delta protocol derives it. */
  static String fileName(UUID id) {
    return "deletion_vector_" + id + ".bin";
  }

  /** The CRC-32 of {@code data}, as the int a DV file holds. */
  static int checksum(byte[] data) {
    CRC32 crc = new CRC32();
    crc.update(data);
    return (int) crc.getValue();
  }
}
