/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * How rows and tables change shape: merging a new row type into a table's schema, type widening,
 * file layouts, and the exception a commit fails with when another writer changed the table so that
 * the job's files no longer fit ({@link io.github.flinkdelta.core.schema.SchemaChangedException},
 * API).
 */
package io.github.flinkdelta.core.schema;
