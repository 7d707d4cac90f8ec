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

  public static final ConfigOption<String> TABLE_ROOT =
      ConfigOptions.key("table-root")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "With 'sink.dynamic.table-name-column': the directory under which each row's path"
                  + " table lives, e.g. s3a://bucket/warehouse (a name db.orders is the table at"
                  + " <root>/db/orders). Instead of 'table-path'.");

  public static final ConfigOption<String> UC_NAMESPACE =
      ConfigOptions.key("uc.namespace")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "With 'sink.dynamic.table-name-column': the Unity Catalog catalog, or"
                  + " catalog.schema, that completes each row's table name to"
                  + " catalog.schema.table. Instead of 'uc.table'.");

  public static final ConfigOption<String> TABLE_NAME_COLUMN =
      ConfigOptions.key("sink.dynamic.table-name-column")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "Makes the table a dynamic sink: each row goes to the table this STRING column"
                  + " names (through 'sink.dynamic.table-name-template'), under 'table-root' or"
                  + " in 'uc.namespace'. The column itself is not written. Tables are created and"
                  + " evolved as rows name them; with a PRIMARY KEY, each table takes upserts by"
                  + " the key's other columns.");

  public static final ConfigOption<String> TABLE_NAME_TEMPLATE =
      ConfigOptions.key("sink.dynamic.table-name-template")
          .stringType()
          .defaultValue("{value}")
          .withDescription(
              "How a row's table is named from the value of 'sink.dynamic.table-name-column':"
                  + " {value} stands for it, e.g. 'events.{value}'.");

  private DeltaTableOptions() {}
}
