/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.upsert;

import org.apache.flink.annotation.Internal;

/**
 * The value of a key-index entry: where the key's live row is, as the file's id (eight bytes) and
 * the row's position (a variable-length integer, one byte below 128, three below two million), so
 * that an entry with its key stays well under 64 bytes in a state backend; then, once the index was
 * rebuilt, its generation (another variable-length integer; none for generation 0). An entry of an
 * earlier generation than the index's counts as absent, which clears an index without visiting its
 * keys.
 */
@Internal
public final class IndexEntries {

  private IndexEntries() {}

  public static byte[] encode(long fileId, long position) {
    return encode(fileId, position, 0);
  }

  public static byte[] encode(long fileId, long position, long generation) {
    if (position < 0 || generation < 0) {
      throw new IllegalArgumentException(
          "Negative row position " + position + " or generation " + generation);
    }
    int length = 8 + varintLength(position) + (generation == 0 ? 0 : varintLength(generation));
    byte[] entry = new byte[length];
    for (int i = 0; i < 8; i++) {
      entry[i] = (byte) (fileId >>> (56 - 8 * i));
    }
    int at = writeVarint(entry, 8, position);
    if (generation != 0) {
      writeVarint(entry, at, generation);
    }
    return entry;
  }

  /** The generation of the index that wrote {@code entry}. */
  public static long generation(byte[] entry) {
    int at = 8;
    while (at < entry.length && (entry[at] & 0x80) != 0) {
      at++;
    }
    return at + 1 >= entry.length ? 0 : readVarint(entry, at + 1);
  }

  /**
   * Writes {@code value} as a variable-length integer (seven bits a byte, low bits first) at {@code
   * at}.
   *
   * @return the index after it
   */
  static int writeVarint(byte[] entry, int at, long value) {
    long rest = value;
    while ((rest & ~0x7FL) != 0) {
      entry[at++] = (byte) ((rest & 0x7F) | 0x80);
      rest >>>= 7;
    }
    entry[at] = (byte) rest;
    return at + 1;
  }

  public static long fileId(byte[] entry) {
    long id = 0;
    for (int i = 0; i < 8; i++) {
      id = (id << 8) | (entry[i] & 0xFF);
    }
    return id;
  }

  public static long position(byte[] entry) {
    return readVarint(entry, 8);
  }

  private static long readVarint(byte[] entry, int from) {
    long position = 0;
    int shift = 0;
    for (int at = from; at < entry.length; at++) {
      position |= (long) (entry[at] & 0x7F) << shift;
      if ((entry[at] & 0x80) == 0) {
        return position;
      }
      shift += 7;
    }
    throw new IllegalArgumentException("Corrupt key-index entry of " + entry.length + " bytes");
  }

  private static int varintLength(long value) {
    int length = 1;
    while ((value & ~0x7FL) != 0) {
      length++;
      value >>>= 7;
    }
    return length;
  }
}
