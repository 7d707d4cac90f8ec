/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.deletion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.PrimitiveIterator;
import org.junit.jupiter.api.Test;

/** The set itself and its Delta {@code RoaringBitmapArray} bytes, without any file. */
class RowPositionsTest {

  private static final long TWO_32 = 1L << 32;

  @Test
  void holdsPositionsOfManyBucketsInAscendingOrder() {
    RowPositions positions =
        of(5 * TWO_32 + 1, 7, 0, TWO_32 - 1, TWO_32, 5 * TWO_32 + 1, RowPositions.MAX_POSITION);

    assertThat(positions.cardinality()).isEqualTo(6);
    assertThat(toList(positions.iterator()))
        .containsExactly(0L, 7L, TWO_32 - 1, TWO_32, 5 * TWO_32 + 1, RowPositions.MAX_POSITION);
    assertThat(positions.last()).isEqualTo(RowPositions.MAX_POSITION);
    assertThat(positions.contains(TWO_32 - 1)).isTrue();
    assertThat(positions.contains(2 * TWO_32)).isFalse();
    assertThat(positions.contains(-1)).isFalse();
    assertThat(positions.contains(Long.MAX_VALUE)).isFalse();
    assertThat(positions)
        .hasToString("RowPositions{cardinality=6, range=[0, " + RowPositions.MAX_POSITION + "]}");
  }

  @Test
  void refusesPositionsKernelCannotLookUp() {
    RowPositions positions = new RowPositions();

    assertThatThrownBy(() -> positions.add(-1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Row position -1");
    assertThatThrownBy(() -> positions.add(RowPositions.MAX_POSITION + 1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> positions.add((long) Integer.MAX_VALUE << 32))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(positions.isEmpty()).isTrue();
  }

  @Test
  void anEmptySetHasNoLastPosition() {
    RowPositions empty = new RowPositions();

    assertThat(empty.cardinality()).isZero();
    assertThat(empty.iterator().hasNext()).isFalse();
    assertThatThrownBy(empty::last).isInstanceOf(NoSuchElementException.class);
    assertThatThrownBy(() -> empty.iterator().nextLong())
        .isInstanceOf(NoSuchElementException.class);
    assertThat(empty).hasToString("RowPositions{empty}");
    assertThat(RowPositions.fromBitmapData(empty.toBitmapData())).isEqualTo(empty);
  }

  @Test
  void aCompactedSetHoldsTheSamePositionsAndStaysIndependent() {
    // A file with every row but a few deleted: one run of positions with gaps.
    RowPositions nearlyAll = new RowPositions();
    for (long position = 0; position < 70_000; position++) {
      if (position % 9_999 != 5) {
        nearlyAll.add(position);
      }
    }
    nearlyAll.add(5 * TWO_32);

    RowPositions compacted = nearlyAll.compacted();
    assertThat(compacted).isEqualTo(nearlyAll);
    assertThat(compacted.cardinality()).isEqualTo(70_000 - 8 + 1);
    compacted.add(5);
    compacted.removeAll(of(0));
    assertThat(compacted.contains(5)).isTrue();
    assertThat(compacted.contains(0)).isFalse();
    assertThat(nearlyAll.contains(5)).isFalse();
    assertThat(nearlyAll.contains(0)).isTrue();
    assertThat(RowPositions.fromBitmapData(compacted.toBitmapData())).isEqualTo(compacted);
  }

  @Test
  void addAllAndCopyAreIndependentSets() {
    RowPositions a = of(1, 2, 3 * TWO_32);
    RowPositions b = of(2, 9, 4 * TWO_32);
    RowPositions copy = a.copy();

    a.addAll(b);
    a.addAll(a);

    assertThat(toList(a.iterator())).containsExactly(1L, 2L, 9L, 3 * TWO_32, 4 * TWO_32);
    assertThat(toList(copy.iterator())).containsExactly(1L, 2L, 3 * TWO_32);
    b.add(10);
    assertThat(a.contains(10)).isFalse();
  }

  @Test
  void equalSetsAreEqualHowEverTheirBitmapsStoreThem() {
    // A range read back from bytes is a run container; added one by one it is a bitmap container.
    RowPositions added = new RowPositions();
    for (long p = 0; p < 100_000; p++) {
      added.add(p);
    }
    added.add(3 * TWO_32 + 17);
    RowPositions read = RowPositions.fromBitmapData(added.toBitmapData());

    assertThat(read).isEqualTo(added);
    assertThat(added).isEqualTo(read);
    assertThat(read.hashCode()).isEqualTo(added.hashCode());
    read.add(100_000);
    assertThat(read).isNotEqualTo(added);

    // An array container (100 values) against the run container it is written as.
    RowPositions small = new RowPositions();
    for (long p = 500; p < 600; p++) {
      small.add(p);
    }
    RowPositions smallRead = RowPositions.fromBitmapData(small.toBitmapData());
    assertThat(small.toBitmapData().length).isLessThan(100);
    assertThat(smallRead).isEqualTo(small).hasSameHashCodeAs(small);
    assertThat(small).isEqualTo(smallRead);
  }

  @Test
  void writesTheLayoutTheProtocolDescribes() {
    // Built by hand from the Delta protocol and the RoaringBitmap format spec: magic number,
    // bucket count, then key 0 and a bitmap of one array container holding 3, 4 and 7; then key 2
    // and a bitmap holding 0.
    byte[] expected =
        le(
            ints(1681511377),
            longs(2),
            ints(0),
            ints(12346, 1),
            shorts(0, 2),
            ints(16),
            shorts(3, 4, 7),
            ints(2),
            ints(12346, 1),
            shorts(0, 0),
            ints(16),
            shorts(0));

    RowPositions positions = of(3, 4, 7, 2 * TWO_32);

    assertThat(positions.toBitmapData()).isEqualTo(expected);
    assertThat(RowPositions.fromBitmapData(expected)).isEqualTo(positions);
  }

  @Test
  void readsTheLegacyNativeLayout() {
    // Native: magic, bucket count, then per bucket (key = its index) its size and its bitmap.
    byte[] native3 =
        le(
            ints(1681511376),
            ints(3),
            ints(18),
            ints(12346, 1),
            shorts(0, 0),
            ints(16),
            shorts(5),
            ints(8),
            ints(12346, 0),
            ints(18),
            ints(12346, 1),
            shorts(1, 0),
            ints(16),
            shorts(9));

    assertThat(toList(RowPositions.fromBitmapData(native3).iterator()))
        .containsExactly(5L, 2 * TWO_32 + 65536 + 9);
  }

  @Test
  void refusesAnotherMagicNumber() {
    byte[] data = of(1, 2).toBitmapData();
    data[0] ^= 4;

    assertThatThrownBy(() -> RowPositions.fromBitmapData(data))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("its magic number is 1681511381, not 1681511377");
    assertThatThrownBy(() -> RowPositions.fromBitmapData(new byte[] {1, 2}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("shorter than its magic number");
  }

  @Test
  void everyTruncationOrExtensionIsRefusedWithItsOwnMessage() {
    RowPositions positions = of(1, 2, 70_000, TWO_32 + 5, 9 * TWO_32);
    for (long p = 200_000; p < 210_000; p++) {
      positions.add(p);
    }
    byte[] data = positions.toBitmapData();

    for (int length = 0; length < data.length; length++) {
      byte[] cut = Arrays.copyOf(data, length);
      assertThatThrownBy(() -> RowPositions.fromBitmapData(cut))
          .as("the first %d of %d bytes", length, data.length)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("Not a Delta deletion vector bitmap of " + length + " bytes");
    }
    assertThatThrownBy(() -> RowPositions.fromBitmapData(Arrays.copyOf(data, data.length + 1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("1 bytes follow the bitmap");
  }

  @Test
  void refusesKeysOutOfOrderOrRange() {
    byte[] emptyBitmap = le(ints(12346, 0));
    byte[] descending = le(ints(1681511377), longs(2), ints(3), emptyBitmap, ints(3), emptyBitmap);
    byte[] negative = le(ints(1681511377), longs(1), ints(-1), emptyBitmap);
    byte[] tooManyBuckets = le(ints(1681511377), longs(1L << 40), ints(0), emptyBitmap);

    assertThatThrownBy(() -> RowPositions.fromBitmapData(descending))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("bucket key 3 does not follow key 3");
    assertThatThrownBy(() -> RowPositions.fromBitmapData(negative))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("bucket key -1 is out of range");
    assertThatThrownBy(() -> RowPositions.fromBitmapData(tooManyBuckets))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("claims 1099511627776 buckets");
  }

  @Test
  void emptyBucketsReadBackAsNoBuckets() {
    byte[] emptyBitmap = le(ints(12346, 0));
    byte[] data =
        le(
            ints(1681511377),
            longs(3),
            ints(0),
            emptyBitmap,
            ints(1),
            emptyBitmap,
            ints(2),
            ints(12346, 1),
            shorts(0, 0),
            ints(16),
            shorts(4));

    RowPositions positions = RowPositions.fromBitmapData(data);

    assertThat(toList(positions.iterator())).containsExactly(2 * TWO_32 + 4);
    assertThat(positions).isEqualTo(of(2 * TWO_32 + 4));
  }

  @Test
  void roundTripsThroughFlinkState() throws IOException {
    RowPositions first = of(0, 1, TWO_32 * 3);
    RowPositions second = new RowPositions();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    first.writeTo(out);
    second.writeTo(out);
    out.writeInt(7);

    DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes.toByteArray()));
    assertThat(RowPositions.readFrom(in)).isEqualTo(first);
    assertThat(RowPositions.readFrom(in)).isEqualTo(second);
    assertThat(in.readInt()).isEqualTo(7);

    byte[] corrupt = bytes.toByteArray();
    corrupt[4] = 0;
    assertThatThrownBy(
            () -> RowPositions.readFrom(new DataInputStream(new ByteArrayInputStream(corrupt))))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("magic number");
  }

  static RowPositions of(long... values) {
    RowPositions positions = new RowPositions();
    for (long value : values) {
      positions.add(value);
    }
    return positions;
  }

  static List<Long> toList(PrimitiveIterator.OfLong iterator) {
    List<Long> values = new ArrayList<>();
    iterator.forEachRemaining((long value) -> values.add(value));
    return values;
  }

  /** Concatenates little-endian pieces. */
  static byte[] le(byte[]... pieces) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] piece : pieces) {
      out.writeBytes(piece);
    }
    return out.toByteArray();
  }

  static byte[] ints(int... values) {
    ByteBuffer buffer = ByteBuffer.allocate(4 * values.length).order(ByteOrder.LITTLE_ENDIAN);
    for (int value : values) {
      buffer.putInt(value);
    }
    return buffer.array();
  }

  static byte[] longs(long... values) {
    ByteBuffer buffer = ByteBuffer.allocate(8 * values.length).order(ByteOrder.LITTLE_ENDIAN);
    for (long value : values) {
      buffer.putLong(value);
    }
    return buffer.array();
  }

  static byte[] shorts(int... values) {
    ByteBuffer buffer = ByteBuffer.allocate(2 * values.length).order(ByteOrder.LITTLE_ENDIAN);
    for (int value : values) {
      buffer.putShort((short) value);
    }
    return buffer.array();
  }
}
