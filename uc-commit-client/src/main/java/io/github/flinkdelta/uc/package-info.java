/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * Unity Catalog side of the connector: connection and authentication, {@code catalog.schema.table}
 * resolution, managed-table creation and catalog-managed commits. This package knows nothing of
 * Flink; the connector modules wire it in.
 */
package io.github.flinkdelta.uc;
