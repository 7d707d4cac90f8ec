/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * What the sink, the source and the SQL layer share: where a table is (a path, or a Unity Catalog
 * name with a connection) and how to reach it: {@link
 * io.github.flinkdelta.common.UnityCatalogOptions} ({@code uc.*}), storage options ({@code
 * hadoop.*}), and the environment variables that secrets may name ({@link
 * io.github.flinkdelta.common.EnvironmentReferences}).
 */
package io.github.flinkdelta.common;
