/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */

/** A real Apache Kafka broker in a child JVM, for tests. */
package io.github.flinkdelta.kafkatestkit;
