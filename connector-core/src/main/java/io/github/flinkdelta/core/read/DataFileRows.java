/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.read;

import java.io.Closeable;
import org.apache.flink.table.data.RowData;

/**
 * Every row of one data file in file order, the deleted ones included: {@link FileRows} decides
 * which to read and which to pass over.
 */
interface DataFileRows extends Closeable {

  /**
   * Whether the file has a row after those read and passed over.
   *
   * @throws java.io.UncheckedIOException when the file cannot be read
   */
  boolean hasNext();

  /**
   * Whether the next row is in memory already: {@link #next} and {@link #skip} then read no
   * storage. False at the end of a row group or batch, where {@link #hasNext} reads the next one.
   */
  boolean loaded();

  /** Reads the next row into a new row of the read's columns, in their order. */
  RowData next();

  /** Passes over the next row without making a row of it. */
  void skip();
}
