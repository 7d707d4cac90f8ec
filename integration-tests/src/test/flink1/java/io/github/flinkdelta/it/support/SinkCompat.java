/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.support;

import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;

/**
 * Base of test sinks; Flink 1.20 still declares the abstract {@code createWriter(Sink.InitContext)}
 * while its runtime calls {@code createWriter(WriterInitContext)}.
 */
abstract class SinkCompat<T> implements Sink<T> {
  private static final long serialVersionUID = 1L;

  @Override
  @Deprecated
  public final SinkWriter<T> createWriter(Sink.InitContext context) {
    throw new UnsupportedOperationException("Flink 1.20 calls createWriter(WriterInitContext)");
  }
}
