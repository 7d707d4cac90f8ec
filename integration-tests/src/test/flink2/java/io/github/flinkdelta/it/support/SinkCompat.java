/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.support;

import org.apache.flink.api.connector.sink2.Sink;

/** Base of test sinks; Flink 2.x sinks implement only {@code createWriter(WriterInitContext)}. */
abstract class SinkCompat<T> implements Sink<T> {
  private static final long serialVersionUID = 1L;
}
