/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.deletion;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.UUID;
import org.apache.flink.annotation.Internal;

/**
 * The Z85 variant of Base85 that Delta uses in deletion vector descriptors: every 4 bytes, read as
 * a big-endian unsigned int, become 5 characters, the most significant digit first.
 */
@Internal
public final class Z85 {

  /** The length of an encoded UUID. */
  public static final int ENCODED_UUID_LENGTH = 20;

  private static final char[] DIGITS =
      ("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#")
          .toCharArray();

  private static final byte[] VALUES = new byte[128];

  static {
    Arrays.fill(VALUES, (byte) -1);
    for (int i = 0; i < DIGITS.length; i++) {
      VALUES[DIGITS[i]] = (byte) i;
    }
  }

  private Z85() {}

  /** The 20 characters of a UUID: its most significant 8 bytes, then its least, big-endian. */
  public static String encodeUuid(UUID id) {
    ByteBuffer bytes = ByteBuffer.allocate(16);
    bytes.putLong(id.getMostSignificantBits()).putLong(id.getLeastSignificantBits());
    return encodeBytes(bytes.array());
  }

  /**
   * @throws IllegalArgumentException when {@code encoded} is not 20 Z85 characters
   */
  public static UUID decodeUuid(String encoded) {
    if (encoded.length() != ENCODED_UUID_LENGTH) {
      throw new IllegalArgumentException(
          String.format(
              "A Z85-encoded UUID has %d characters, not %d: '%s'",
              ENCODED_UUID_LENGTH, encoded.length(), encoded));
    }
    ByteBuffer bytes = ByteBuffer.wrap(decodeBytes(encoded, 16));
    return new UUID(bytes.getLong(), bytes.getLong());
  }

  /** Encodes {@code data}, zero-padded to a multiple of 4 bytes. */
  public static String encodeBytes(byte[] data) {
    int blocks = (data.length + 3) / 4;
    char[] out = new char[blocks * 5];
    for (int block = 0; block < blocks; block++) {
      long value = 0;
      for (int i = 0; i < 4; i++) {
        int index = block * 4 + i;
        value = (value << 8) | (index < data.length ? data[index] & 0xFF : 0);
      }
      for (int i = 4; i >= 0; i--) {
        out[block * 5 + i] = DIGITS[(int) (value % 85)];
        value /= 85;
      }
    }
    return new String(out);
  }

  /**
   * Decodes {@code encoded} and drops the padding {@link #encodeBytes} added.
   *
   * @param size the number of bytes before padding
   * @throws IllegalArgumentException when {@code encoded} is not Z85 or not the encoding of {@code
   *     size} bytes
   */
  public static byte[] decodeBytes(String encoded, int size) {
    int blocks = encoded.length() / 5;
    if (encoded.length() % 5 != 0 || size < 0 || blocks != (size + 3) / 4) {
      throw new IllegalArgumentException(
          String.format(
              "%d Z85 characters cannot encode %d bytes: that takes %d",
              encoded.length(), size, Math.max(0, (size + 3) / 4 * 5)));
    }
    byte[] out = new byte[blocks * 4];
    for (int block = 0; block < blocks; block++) {
      long value = 0;
      for (int i = 0; i < 5; i++) {
        int index = block * 5 + i;
        char c = encoded.charAt(index);
        int digit = c < VALUES.length ? VALUES[c] : -1;
        if (digit < 0) {
          throw new IllegalArgumentException(
              String.format("Not a Z85 character at index %d: '%c'", index, c));
        }
        value = value * 85 + digit;
      }
      if (value > 0xFFFF_FFFFL) {
        throw new IllegalArgumentException(
            String.format(
                "Z85 block '%s' at index %d exceeds 32 bits",
                encoded.substring(block * 5, block * 5 + 5), block * 5));
      }
      for (int i = 3; i >= 0; i--) {
        out[block * 4 + i] = (byte) value;
        value >>>= 8;
      }
    }
    return size == out.length ? out : Arrays.copyOf(out, size);
  }
}
