/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.cdc;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.cdc.common.configuration.ConfigOption;
import org.apache.flink.cdc.common.configuration.ConfigOptions;

/**
 * The options of the {@code delta} pipeline sink, in Flink CDC's style. Besides these, keys with
 * these prefixes pass on:
 *
 * <ul>
 *   <li>{@code catalog.properties.*}: where the tables are. {@code catalog.properties.warehouse}
 *       for path tables under a root; or {@code catalog.properties.uri} and {@code token} (or the
 *       OAuth ones) for Unity Catalog managed tables, as the connector's {@code uc.*} options.
 *   <li>{@code table.properties.*}: Delta table properties of every table the sink creates.
 *   <li>{@code sink.*}: the connector's sink options, e.g. {@code sink.app-id}.
 *   <li>{@code hadoop.*}: file system options, e.g. {@code hadoop.fs.s3a.endpoint}.
 * </ul>
 */
@PublicEvolving
public final class DeltaPipelineOptions {

  /** The prefix of the catalog's options. */
  public static final String CATALOG_PREFIX = "catalog.properties.";

  /** The prefix of the created tables' Delta properties. */
  public static final String TABLE_PREFIX = "table.properties.";

  /** The prefix of the connector's sink options. */
  public static final String SINK_PREFIX = "sink.";

  /** The option under {@link #CATALOG_PREFIX} that names the root of path tables. */
  public static final String WAREHOUSE = "warehouse";

  public static final ConfigOption<String> TABLE_NAME =
      ConfigOptions.key("table.name")
          .stringType()
          .defaultValue("{schema}.{table}")
          .withDescription(
              "How a source table's Delta table is named, from {namespace}, {schema} (a MySQL"
                  + " database) and {table}. Dots separate a path table's directories under the"
                  + " warehouse, and a Unity Catalog name's parts.");

  public static final ConfigOption<String> NAMESPACE =
      ConfigOptions.key("namespace")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "Unity Catalog tables: the catalog, or catalog.schema, that completes names with"
                  + " fewer than three parts.");

  public static final ConfigOption<String> PARTITION_KEY =
      ConfigOptions.key("partition.key")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "Partition columns per source table, over those its CreateTableEvent carries:"
                  + " 'db.orders:day;db.items:country,day'.");

  public static final ConfigOption<String> UID_PREFIX =
      ConfigOptions.key("uid-prefix")
          .stringType()
          .defaultValue("delta-pipeline-sink")
          .withDescription(
              "The prefix of the sink's operator uids, which a savepoint maps state back by.");

  private DeltaPipelineOptions() {}
}
