/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.deletion;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.PrimitiveIterator;
import java.util.TreeMap;
import org.apache.flink.annotation.Internal;
import org.roaringbitmap.IntIterator;
import org.roaringbitmap.RoaringBitmap;

/**
 * The row positions (0-based row indexes) of one data file, such as the rows a deletion vector
 * removes. Positions are grouped by their high 32 bits; each group is a 32-bit {@link
 * RoaringBitmap} of the low 32 bits, which is also how Delta serializes them ({@link
 * #toBitmapData()}).
 *
 * <p>Mutable and not thread-safe.
 */
@Internal
public final class RowPositions {

  /**
   * The largest position Delta Kernel's reader can look up: high 32 bits {@code Integer.MAX_VALUE -
   * 1}, low 32 bits {@code 2^31} (Kernel's {@code MAX_REPRESENTABLE_VALUE}).
   */
  public static final long MAX_POSITION = ((long) (Integer.MAX_VALUE - 1) << 32) | 0x8000_0000L;

  /** The magic number of the portable layout, the one Delta writers must use. */
  static final int PORTABLE_MAGIC = 1681511377;

  /** The magic number of the older native layout, which readers still accept. */
  static final int NATIVE_MAGIC = 1681511376;

  static final int MAX_KEY = Integer.MAX_VALUE - 1;

  /** High 32 bits to the low 32 bits of the positions; no bitmap in it is ever empty. */
  private final TreeMap<Integer, RoaringBitmap> buckets = new TreeMap<>();

  /** An empty set. */
  public RowPositions() {}

  /**
   * Adds one position.
   *
   * @throws IllegalArgumentException when it is negative or above {@link #MAX_POSITION}
   */
  public void add(long position) {
    if (position < 0 || position > MAX_POSITION) {
      throw new IllegalArgumentException(
          String.format(
              "Row position %d is outside the range a deletion vector holds, 0 to %d",
              position, MAX_POSITION));
    }
    buckets.computeIfAbsent(high(position), key -> new RoaringBitmap()).add((int) position);
  }

  /** Adds every position of {@code other}. */
  public void addAll(RowPositions other) {
    if (other == this) {
      return;
    }
    for (Map.Entry<Integer, RoaringBitmap> bucket : other.buckets.entrySet()) {
      buckets.computeIfAbsent(bucket.getKey(), key -> new RoaringBitmap()).or(bucket.getValue());
    }
  }

  /** Removes every position of {@code other}. */
  public void removeAll(RowPositions other) {
    if (other == this) {
      buckets.clear();
      return;
    }
    for (Map.Entry<Integer, RoaringBitmap> bucket : other.buckets.entrySet()) {
      RoaringBitmap mine = buckets.get(bucket.getKey());
      if (mine != null) {
        mine.andNot(bucket.getValue());
        if (mine.isEmpty()) {
          buckets.remove(bucket.getKey());
        }
      }
    }
  }

  /** The positions both this set and {@code other} hold, as a new set. */
  public RowPositions intersection(RowPositions other) {
    RowPositions both = new RowPositions();
    for (Map.Entry<Integer, RoaringBitmap> bucket : buckets.entrySet()) {
      RoaringBitmap theirs = other.buckets.get(bucket.getKey());
      if (theirs != null) {
        RoaringBitmap and = RoaringBitmap.and(bucket.getValue(), theirs);
        if (!and.isEmpty()) {
          both.buckets.put(bucket.getKey(), and);
        }
      }
    }
    return both;
  }

  /** Whether {@code position} is in the set; false for any position no set can hold. */
  public boolean contains(long position) {
    if (position < 0 || position > MAX_POSITION) {
      return false;
    }
    RoaringBitmap bucket = buckets.get(high(position));
    return bucket != null && bucket.contains((int) position);
  }

  /**
   * The number of positions below {@code position}: the rank of a row among those not in the set.
   */
  public long countBelow(long position) {
    if (position <= 0) {
      return 0;
    }
    if (position > MAX_POSITION) {
      return cardinality();
    }
    long below = 0;
    for (RoaringBitmap bucket : buckets.headMap(high(position), false).values()) {
      below += bucket.getLongCardinality();
    }
    RoaringBitmap bucket = buckets.get(high(position));
    if (bucket != null) {
      int low = (int) position;
      below += bucket.rankLong(low) - (bucket.contains(low) ? 1 : 0);
    }
    return below;
  }

  /** The number of positions. */
  public long cardinality() {
    long cardinality = 0;
    for (RoaringBitmap bucket : buckets.values()) {
      cardinality += bucket.getLongCardinality();
    }
    return cardinality;
  }

  public boolean isEmpty() {
    return buckets.isEmpty();
  }

  /**
   * The largest position.
   *
   * @throws NoSuchElementException when the set is empty
   */
  public long last() {
    if (buckets.isEmpty()) {
      throw new NoSuchElementException("The set of row positions is empty");
    }
    Map.Entry<Integer, RoaringBitmap> bucket = buckets.lastEntry();
    return position(bucket.getKey(), bucket.getValue().last());
  }

  /** The positions in ascending order; the set must not change while it is iterated. */
  public PrimitiveIterator.OfLong iterator() {
    Iterator<Map.Entry<Integer, RoaringBitmap>> next = buckets.entrySet().iterator();
    return new PrimitiveIterator.OfLong() {
      private int key;
      private IntIterator lows;

      @Override
      public boolean hasNext() {
        while ((lows == null || !lows.hasNext()) && next.hasNext()) {
          Map.Entry<Integer, RoaringBitmap> bucket = next.next();
          key = bucket.getKey();
          lows = bucket.getValue().getIntIterator();
        }
        return lows != null && lows.hasNext();
      }

      @Override
      public long nextLong() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        return position(key, lows.next());
      }
    };
  }

  /**
   * An independent copy in its smallest form, for keeping: ranges of consecutive positions become
   * runs. A file whose rows are nearly all deleted then costs a few bytes per live row rather than
   * a bitmap of 8 KB per 65,536 rows.
   */
  public RowPositions compacted() {
    RowPositions copy = copy();
    copy.buckets.values().forEach(RoaringBitmap::runOptimize);
    return copy;
  }

  /** Roughly the heap this set takes: its bitmaps' own estimate, and a map entry per bucket. */
  public long sizeInBytes() {
    long size = 64;
    for (RoaringBitmap bucket : buckets.values()) {
      size += 64 + bucket.getLongSizeInBytes();
    }
    return size;
  }

  /** An independent copy. */
  public RowPositions copy() {
    RowPositions copy = new RowPositions();
    buckets.forEach((key, bucket) -> copy.buckets.put(key, bucket.clone()));
    return copy;
  }

  /**
   * The set as a Delta {@code RoaringBitmapArray}: the magic number {@value #PORTABLE_MAGIC}, then
   * the portable 64-bit layout (the number of buckets as an int64, then per bucket its key, the
   * high 32 bits, as a uint32 and its 32-bit RoaringBitmap), all little-endian.
   */
  public byte[] toBitmapData() {
    // Only non-empty buckets are written. The portable layout names each bucket's key, so the
    // keys need not be consecutive, and Kernel's and Spark's readers fill the gaps; writing the
    // empty buckets below the largest key as Spark does would add 12 bytes per missing 2^32 rows
    // and tell a reader nothing.
    List<Map.Entry<Integer, RoaringBitmap>> compacted = new ArrayList<>(buckets.size());
    long size = 4 + 8;
    for (Map.Entry<Integer, RoaringBitmap> bucket : buckets.entrySet()) {
      // Run containers shrink long ranges of deleted rows; the clone keeps this set as it was.
      RoaringBitmap bitmap = bucket.getValue().clone();
      bitmap.runOptimize();
      compacted.add(Map.entry(bucket.getKey(), bitmap));
      size += 4 + bitmap.serializedSizeInBytes();
    }
    if (size > Integer.MAX_VALUE - 8) {
      throw new IllegalStateException(
          "The deletion vector of " + this + " would take " + size + " bytes, over 2 GiB");
    }
    ByteBuffer buffer = ByteBuffer.allocate((int) size).order(ByteOrder.LITTLE_ENDIAN);
    buffer.putInt(PORTABLE_MAGIC);
    buffer.putLong(compacted.size());
    for (Map.Entry<Integer, RoaringBitmap> bucket : compacted) {
      buffer.putInt(bucket.getKey());
      bucket.getValue().serialize(buffer);
    }
    return buffer.array();
  }

  /**
   * Reads a Delta {@code RoaringBitmapArray}: the portable layout {@link #toBitmapData()} writes,
   * or the older native one (magic {@value #NATIVE_MAGIC}, an int32 number of buckets, then per
   * bucket its size in bytes as an int32 and its 32-bit RoaringBitmap; the n-th bucket has key n),
   * both little-endian, as Delta Kernel reads them.
   *
   * @throws IllegalArgumentException when the bytes are not such a bitmap: another magic number,
   *     fewer or more bytes than the bitmap needs, or keys out of order or out of range
   */
  public static RowPositions fromBitmapData(byte[] data) {
    return BitmapArrayReader.read(data);
  }

  /**
   * Writes the set for Flink state: the length of {@link #toBitmapData()} as an int, then those
   * bytes. The magic number in them names their layout; the enclosing serializer versions the rest.
   */
  public void writeTo(DataOutput out) throws IOException {
    byte[] data = toBitmapData();
    out.writeInt(data.length);
    out.write(data);
  }

  /** Reads what {@link #writeTo} wrote. */
  public static RowPositions readFrom(DataInput in) throws IOException {
    int length = in.readInt();
    if (length < 4) {
      throw new IOException("Invalid length of serialized row positions: " + length);
    }
    byte[] data = new byte[length];
    in.readFully(data);
    try {
      return fromBitmapData(data);
    } catch (IllegalArgumentException e) {
      throw new IOException(e.getMessage(), e);
    }
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof RowPositions positions && buckets.equals(positions.buckets);
  }

  /** Depends on the positions only, not on how their bitmaps store them. */
  @Override
  public int hashCode() {
    int hash = 1;
    for (Map.Entry<Integer, RoaringBitmap> bucket : buckets.entrySet()) {
      RoaringBitmap bitmap = bucket.getValue();
      hash = 31 * hash + bucket.getKey();
      hash = 31 * hash + Long.hashCode(bitmap.getLongCardinality());
      hash = 31 * hash + bitmap.first();
      hash = 31 * hash + bitmap.last();
    }
    return hash;
  }

  @Override
  public String toString() {
    if (buckets.isEmpty()) {
      return "RowPositions{empty}";
    }
    Map.Entry<Integer, RoaringBitmap> first = buckets.firstEntry();
    return String.format(
        "RowPositions{cardinality=%d, range=[%d, %d]}",
        cardinality(), position(first.getKey(), first.getValue().first()), last());
  }

  /**
   * Adds the bitmap of the positions whose high 32 bits are {@code key}; empty ones are not kept.
   */
  void putBucket(int key, RoaringBitmap bitmap) {
    if (!bitmap.isEmpty()) {
      buckets.put(key, bitmap);
    }
  }

  private static int high(long position) {
    return (int) (position >>> 32);
  }

  static long position(int high, int low) {
    return ((long) high << 32) | Integer.toUnsignedLong(low);
  }
}
