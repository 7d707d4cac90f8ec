/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.write;

import org.apache.flink.annotation.Internal;

/**
 * Where a written row landed.
 *
 * @param fileId the data file's {@link FileIds id}
 * @param position the row's position in the file, from 0
 */
@Internal
public record RowLocation(long fileId, long position) {}
