/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.deletion;

import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.roaringbitmap.RoaringBitmap;

/**
 * Reads a Delta {@code RoaringBitmapArray}, the serialized form of a deletion vector, into {@link
 * RowPositions}, checking every length, key and position against the bytes it has, so that a
 * corrupt or hostile vector fails with what is wrong instead of a huge allocation.
 */
final class BitmapArrayReader {

  /** The serialized size of an empty 32-bit bitmap: its cookie and its container count. */
  private static final int MIN_BITMAP_BYTES = 8;

  private BitmapArrayReader() {}

  /** See {@link RowPositions#fromBitmapData}. */
  static RowPositions read(byte[] data) {
    ByteBuffer buffer = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN);
    if (data.length < 4) {
      throw corrupt(data, "it is shorter than its magic number", null);
    }
    int magic = buffer.getInt();
    RowPositions positions = new RowPositions();
    try {
      if (magic == RowPositions.PORTABLE_MAGIC) {
        readPortable(positions, buffer, data);
      } else if (magic == RowPositions.NATIVE_MAGIC) {
        readNative(positions, buffer, data);
      } else {
        throw corrupt(
            data,
            String.format(
                "its magic number is %d, not %d (or the legacy %d)",
                magic, RowPositions.PORTABLE_MAGIC, RowPositions.NATIVE_MAGIC),
            null);
      }
    } catch (BufferUnderflowException e) {
      throw corrupt(data, "it is truncated", e);
    }
    if (buffer.hasRemaining()) {
      throw corrupt(data, buffer.remaining() + " bytes follow the bitmap", null);
    }
    return positions;
  }

  private static void readPortable(RowPositions positions, ByteBuffer buffer, byte[] data) {
    long count = buffer.getLong();
    if (count < 0 || count > buffer.remaining() / (4 + MIN_BITMAP_BYTES)) {
      throw corrupt(
          data,
          String.format("it claims %d buckets but only %d bytes follow", count, buffer.remaining()),
          null);
    }
    int previous = -1;
    for (long i = 0; i < count; i++) {
      int key = buffer.getInt();
      if (key < 0 || key > RowPositions.MAX_KEY) {
        throw corrupt(data, String.format("bucket key %d is out of range", key), null);
      }
      if (key <= previous) {
        throw corrupt(
            data, String.format("bucket key %d does not follow key %d", key, previous), null);
      }
      previous = key;
      RoaringBitmap bitmap = readBitmap(buffer.slice(), key, data);
      if (bitmap.serializedSizeInBytes() > buffer.remaining()) {
        throw corrupt(
            data,
            String.format(
                "the bitmap of bucket key %d takes %d bytes and %d bytes follow",
                key, bitmap.serializedSizeInBytes(), buffer.remaining()),
            null);
      }
      buffer.position(buffer.position() + bitmap.serializedSizeInBytes());
      putBucket(positions, key, bitmap, data);
    }
  }

  private static void readNative(RowPositions positions, ByteBuffer buffer, byte[] data) {
    int count = buffer.getInt();
    if (count < 0 || count > buffer.remaining() / (4 + MIN_BITMAP_BYTES)) {
      throw corrupt(
          data,
          String.format("it claims %d buckets but only %d bytes follow", count, buffer.remaining()),
          null);
    }
    for (int key = 0; key < count; key++) {
      int size = buffer.getInt();
      if (size < MIN_BITMAP_BYTES || size > buffer.remaining()) {
        throw corrupt(
            data,
            String.format(
                "bucket %d claims %d bytes and %d bytes follow", key, size, buffer.remaining()),
            null);
      }
      RoaringBitmap bitmap = readBitmap(buffer.slice().limit(size), key, data);
      if (bitmap.serializedSizeInBytes() != size) {
        throw corrupt(
            data,
            String.format(
                "bucket %d claims %d bytes but its bitmap takes %d",
                key, size, bitmap.serializedSizeInBytes()),
            null);
      }
      buffer.position(buffer.position() + size);
      putBucket(positions, key, bitmap, data);
    }
  }

  /** The 32-bit bitmap at the start of {@code bytes}, which it leaves where it was. */
  private static RoaringBitmap readBitmap(ByteBuffer bytes, int key, byte[] data) {
    RoaringBitmap bitmap = new RoaringBitmap();
    try {
      bitmap.deserialize(bytes.order(ByteOrder.LITTLE_ENDIAN));
    } catch (IOException | RuntimeException e) {
      throw corrupt(
          data,
          String.format("the bitmap of bucket key %d is truncated or corrupt (%s)", key, e),
          e);
    }
    return bitmap;
  }

  private static void putBucket(
      RowPositions positions, int key, RoaringBitmap bitmap, byte[] data) {
    if (bitmap.isEmpty()) {
      return;
    }
    long last = RowPositions.position(key, bitmap.last());
    if (last > RowPositions.MAX_POSITION) {
      throw corrupt(data, "it holds position " + last + ", over the maximum", null);
    }
    positions.putBucket(key, bitmap);
  }

  private static IllegalArgumentException corrupt(byte[] data, String what, Throwable cause) {
    return new IllegalArgumentException(
        String.format("Not a Delta deletion vector bitmap of %d bytes: %s", data.length, what),
        cause);
  }
}
