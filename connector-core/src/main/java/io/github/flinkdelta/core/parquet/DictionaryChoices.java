/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.parquet;

import java.util.HashSet;
import java.util.Set;
import org.apache.flink.annotation.Internal;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;

/**
 * Which columns a writer's next data file encodes without a dictionary, learnt from its earlier
 * files. Mutable; one per writer of many files, used from its thread only.
 *
 * <p>parquet-java builds each column's dictionary until the first page is complete and only then
 * decides whether the dictionary pays off; for a column of distinct values (ids, timestamps) it
 * discards that work, in every row group of every file. A small file is often a single page, so the
 * whole column was encoded twice. Once a column's chunk comes out without a dictionary page, the
 * following files write that column plainly from the start. Every {@value #FILES_BETWEEN_RETRIES}th
 * file tries every column's dictionary again, so a column whose values start repeating regains it.
 */
@Internal
public final class DictionaryChoices {

  static final int FILES_BETWEEN_RETRIES = 16;

  private final Set<ColumnPath> plain = new HashSet<>();
  private long files;

  /** The columns the next file writes plainly; no column on a retry. */
  Set<ColumnPath> plainColumnsForNextFile() {
    return files++ % FILES_BETWEEN_RETRIES == 0 ? Set.of() : Set.copyOf(plain);
  }

  /**
   * Learns from a completed file, given the columns it wrote plainly by choice: any other column
   * with a chunk that kept no dictionary page goes plain, the rest keep their dictionary.
   */
  void learnFrom(ParquetMetadata footer, Set<ColumnPath> writtenPlain) {
    Set<ColumnPath> fellBack = new HashSet<>();
    Set<ColumnPath> kept = new HashSet<>();
    for (BlockMetaData block : footer.getBlocks()) {
      for (ColumnChunkMetaData chunk : block.getColumns()) {
        if (!writtenPlain.contains(chunk.getPath())) {
          (chunk.hasDictionaryPage() ? kept : fellBack).add(chunk.getPath());
        }
      }
    }
    kept.removeAll(fellBack);
    plain.removeAll(kept);
    plain.addAll(fellBack);
  }
}
