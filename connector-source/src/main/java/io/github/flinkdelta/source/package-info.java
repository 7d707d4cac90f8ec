/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * The DataStream source: {@link io.github.flinkdelta.source.DeltaSource}, built with {@link
 * io.github.flinkdelta.source.DeltaSource#builder()}, reads a Delta table bounded or following each
 * new version, as inserts or as a changelog, with its options in {@link
 * io.github.flinkdelta.source.DeltaSourceOptions}.
 */
package io.github.flinkdelta.source;
