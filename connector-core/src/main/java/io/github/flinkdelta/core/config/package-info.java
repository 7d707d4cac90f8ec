/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * Settings the sink and the SQL connector share: the API values users pass ({@link
 * io.github.flinkdelta.core.config.Compression}, {@link
 * io.github.flinkdelta.core.config.SchemaEvolution}) and, internal, the options core reads.
 */
package io.github.flinkdelta.core.config;
