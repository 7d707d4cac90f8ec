/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.catalog;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.table.catalog.CommonCatalogOptions;

/**
 * Options of {@code CREATE CATALOG ... WITH ('type' = 'unitycatalog', ...)} beyond the connection
 * ({@link io.github.flinkdelta.common.UnityCatalogOptions}, {@code uc.*}). Storage options for
 * Hadoop (such as an S3 endpoint) are given with the prefix {@code hadoop.} ({@link
 * io.github.flinkdelta.common.HadoopOptions}).
 */
@PublicEvolving
public final class UnityCatalogCatalogOptions {

  public static final ConfigOption<String> CATALOG =
      ConfigOptions.key("catalog")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "The Unity Catalog catalog this Flink catalog shows. Defaults to the Flink"
                  + " catalog's name.");

  public static final ConfigOption<String> DEFAULT_DATABASE =
      ConfigOptions.key(CommonCatalogOptions.DEFAULT_DATABASE_KEY)
          .stringType()
          .defaultValue("default")
          .withDescription("The schema USE CATALOG starts in.");

  private UnityCatalogCatalogOptions() {}
}
