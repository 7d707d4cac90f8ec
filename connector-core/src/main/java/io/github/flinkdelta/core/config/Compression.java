/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.config;

import org.apache.flink.annotation.PublicEvolving;

/** Parquet compression codecs the writer offers ({@code sink.parquet.compression}). */
@PublicEvolving
public enum Compression {
  SNAPPY,
  ZSTD,
  GZIP,
  UNCOMPRESSED
}
