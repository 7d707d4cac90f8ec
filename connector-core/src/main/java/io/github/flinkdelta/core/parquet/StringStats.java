/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.parquet;

import io.delta.kernel.expressions.Column;
import io.delta.kernel.expressions.Literal;
import java.nio.charset.StandardCharsets;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.PrimitiveComparator;

/**
 * STRING: keeps only a prefix of the smallest and largest value, in UTF-8 byte order (the order of
 * Unicode code points, which Delta uses). A maximum cut short gets U+10FFFF appended, so it stays
 * at or above every value that shares its prefix; a minimum cut short is a lower bound as it is.
 *
 * <p>The range is taken from the statistics parquet-java keeps of each column chunk in the same
 * order, once the file is complete ({@link #complete}): comparing every value a second time for the
 * table's log would only repeat that work. Only the null count is kept here, as rows arrive.
 */
final class StringStats extends ColumnStats {
  private static final byte[] MAX_CODE_POINT =
      new String(Character.toChars(Character.MAX_CODE_POINT)).getBytes(StandardCharsets.UTF_8);

  private final int prefixChars;
  private final ColumnPath path;
  private Binary min;
  private Binary max;

  StringStats(Column column, int prefixChars) {
    super(column);
    this.prefixChars = prefixChars;
    this.path = ColumnPath.get(column.getNames());
  }

  /**
   * Takes the least minimum and greatest maximum of the column's chunks in the written file. A
   * chunk with values but without statistics leaves the column without a range rather than a wrong
   * one.
   */
  @Override
  void complete(ParquetMetadata footer) {
    for (BlockMetaData block : footer.getBlocks()) {
      for (ColumnChunkMetaData chunk : block.getColumns()) {
        if (!chunk.getPath().equals(path)) {
          continue;
        }
        Statistics<?> chunkStats = chunk.getStatistics();
        if (chunkStats == null || !chunkStats.hasNonNullValue()) {
          if (chunk.getValueCount() > chunkNullCount(chunkStats)) {
            min = max = null;
            return;
          }
          continue;
        }
        Binary chunkMin = (Binary) chunkStats.genericGetMin();
        Binary chunkMax = (Binary) chunkStats.genericGetMax();
        if (min == null || compare(chunkMin, min) < 0) {
          min = chunkMin;
        }
        if (max == null || compare(chunkMax, max) > 0) {
          max = chunkMax;
        }
      }
    }
  }

  private static long chunkNullCount(Statistics<?> chunkStats) {
    return chunkStats == null || !chunkStats.isNumNullsSet() ? 0 : chunkStats.getNumNulls();
  }

  @Override
  boolean hasRange() {
    return min != null;
  }

  @Override
  Literal min() {
    byte[] bytes = min.getBytesUnsafe();
    return Literal.ofString(new String(bytes, 0, prefixLength(bytes), StandardCharsets.UTF_8));
  }

  @Override
  Literal max() {
    byte[] bytes = max.getBytesUnsafe();
    int length = prefixLength(bytes);
    String prefix = new String(bytes, 0, length, StandardCharsets.UTF_8);
    return Literal.ofString(
        length < bytes.length
            ? prefix + new String(MAX_CODE_POINT, StandardCharsets.UTF_8)
            : prefix);
  }

  /** The length in bytes of the first {@code prefixChars} code points of a UTF-8 string. */
  private int prefixLength(byte[] bytes) {
    int end = 0;
    for (int chars = 0; chars < prefixChars && end < bytes.length; chars++) {
      end += utf8SequenceLength(bytes[end]);
    }
    return Math.min(end, bytes.length);
  }

  private static int utf8SequenceLength(byte lead) {
    int b = lead & 0xFF;
    if (b < 0x80) {
      return 1;
    } else if (b < 0xE0) {
      return 2;
    } else if (b < 0xF0) {
      return 3;
    }
    return 4;
  }

  private static int compare(Binary a, Binary b) {
    return PrimitiveComparator.UNSIGNED_LEXICOGRAPHICAL_BINARY_COMPARATOR.compare(a, b);
  }
}
