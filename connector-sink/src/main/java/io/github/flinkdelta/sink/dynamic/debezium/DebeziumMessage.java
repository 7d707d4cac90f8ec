/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.dynamic.debezium;

import org.apache.flink.annotation.PublicEvolving;

/**
 * One Debezium change event as Kafka carries it: the key (the row's primary key, in the same JSON
 * envelope) and the value (the change). Either may be null: a value without a key is written to a
 * table without a primary key, and a null value (a tombstone) is skipped.
 *
 * @param key the key's JSON bytes, {@code {"schema":..., "payload":{...}}}; null when absent
 * @param value the value's JSON bytes, {@code {"schema":..., "payload":{"before", "after",
 *     "source", "op", ...}}}; null for a tombstone
 */
@PublicEvolving
public record DebeziumMessage(byte[] key, byte[] value) {

  /** A change without a key. */
  public static DebeziumMessage ofValue(byte[] value) {
    return new DebeziumMessage(null, value);
  }
}
