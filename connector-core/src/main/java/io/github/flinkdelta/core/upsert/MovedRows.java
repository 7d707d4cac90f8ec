/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.upsert;

import io.github.flinkdelta.core.write.RowLocation;
import java.util.Arrays;
import org.apache.flink.annotation.Internal;

/**
 * The rows one compaction moved, in the order it wrote them, kept in primitive arrays beside their
 * keys (about 30 bytes a row and the key): what an upsert writer needs to move its key index once
 * the compaction is ready. Filled by one thread, then read by another after a hand-over that
 * publishes it.
 */
@Internal
public final class MovedRows implements MovedRowConsumer {

  private String[] keys = new String[1024];
  private long[] fromPositions = new long[1024];
  private long[] toPositions = new long[1024];
  private int[] fromFiles = new int[1024];
  private int[] toFiles = new int[1024];
  private long[] fileIds = new long[16];
  private int files;
  private int size;

  @Override
  public void accept(String key, long fromFile, long fromPosition, RowLocation to) {
    if (size == keys.length) {
      int grown = size * 2;
      keys = Arrays.copyOf(keys, grown);
      fromPositions = Arrays.copyOf(fromPositions, grown);
      toPositions = Arrays.copyOf(toPositions, grown);
      fromFiles = Arrays.copyOf(fromFiles, grown);
      toFiles = Arrays.copyOf(toFiles, grown);
    }
    keys[size] = key;
    fromFiles[size] = fileIndex(fromFile);
    fromPositions[size] = fromPosition;
    toFiles[size] = fileIndex(to.fileId());
    toPositions[size] = to.position();
    size++;
  }

  /** Rows come file after file, so the last two files seen are nearly always the one asked for. */
  private int fileIndex(long fileId) {
    for (int i = files - 1; i >= 0; i--) {
      if (fileIds[i] == fileId) {
        return i;
      }
    }
    if (files == fileIds.length) {
      fileIds = Arrays.copyOf(fileIds, files * 2);
    }
    fileIds[files] = fileId;
    return files++;
  }

  /** The number of rows. */
  public int size() {
    return size;
  }

  /** Hands every row to {@code consumer}, in the order they were written. */
  public void forEach(MovedRowConsumer consumer) {
    for (int i = 0; i < size; i++) {
      consumer.accept(
          keys[i],
          fileIds[fromFiles[i]],
          fromPositions[i],
          new RowLocation(fileIds[toFiles[i]], toPositions[i]));
    }
  }
}
