/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.table;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

/**
 * Where a {@code 'connector' = 'delta'} table lives: a path, or a Unity Catalog table reached
 * through {@link io.github.flinkdelta.common.UnityCatalogOptions}. The write options are {@link
 * io.github.flinkdelta.sink.DeltaSinkOptions}.
 */
@PublicEvolving
public final class DeltaTableOptions {

  public static final ConfigOption<String> TABLE_PATH =
      ConfigOptions.key("table-path")
          .stringType()
          .noDefaultValue()
          .withDescription("Root location of a Delta table on a path, e.g. s3a://bucket/events.");

  public static final ConfigOption<String> UC_TABLE =
      ConfigOptions.key("uc.table")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "Unity Catalog table, catalog.schema.table, written instead of 'table-path'.");

  private DeltaTableOptions() {}
}
