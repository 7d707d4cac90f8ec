/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * Debezium change events for the dynamic sink: {@link
 * io.github.flinkdelta.sink.dynamic.debezium.DebeziumJson} turns the JSON events with their schemas
 * ({@link io.github.flinkdelta.sink.dynamic.debezium.DebeziumMessage}, key and value) into records
 * of the tables a template names, with the keys the events carry.
 */
package io.github.flinkdelta.sink.dynamic.debezium;
