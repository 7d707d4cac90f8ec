/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * The {@code 'type' = 'unitycatalog'} Flink catalog: a Unity Catalog's schemas and Delta tables as
 * Flink databases and tables, with DDL for schemas and managed tables. Its options are in {@link
 * io.github.flinkdelta.catalog.UnityCatalogCatalogOptions}.
 */
package io.github.flinkdelta.catalog;
