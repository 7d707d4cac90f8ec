package io.github.flinkdelta.core.upsert;

import org.apache.flink.annotation.Internal;

/**
 * The value of a key-index entry: where the key's live row is, as the file's id (eight bytes) and
 * the row's position (a variable-length integer, one byte below 128, three below two million), so
 * that an entry with its key stays well under 64 bytes in a state backend.
 */
@Internal
public final class IndexEntries {

  private IndexEntries() {}

  public static byte[] encode(long fileId, long position) {
    if (position < 0) {
      throw new IllegalArgumentException("Negative row position " + position);
    }
    int length = 8 + varintLength(position);
    byte[] entry = new byte[length];
    for (int i = 0; i < 8; i++) {
      entry[i] = (byte) (fileId >>> (56 - 8 * i));
    }
    long rest = position;
    int at = 8;
    while ((rest & ~0x7FL) != 0) {
      entry[at++] = (byte) ((rest & 0x7F) | 0x80);
      rest >>>= 7;
    }
    entry[at] = (byte) rest;
    return entry;
  }

  public static long fileId(byte[] entry) {
    long id = 0;
    for (int i = 0; i < 8; i++) {
      id = (id << 8) | (entry[i] & 0xFF);
    }
    return id;
  }

  public static long position(byte[] entry) {
    long position = 0;
    int shift = 0;
    for (int at = 8; at < entry.length; at++) {
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
