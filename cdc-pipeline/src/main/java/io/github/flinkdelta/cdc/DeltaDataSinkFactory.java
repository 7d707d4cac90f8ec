/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.cdc;

import io.github.flinkdelta.common.HadoopOptions;
import io.github.flinkdelta.common.UnityCatalogOptions;
import io.github.flinkdelta.core.config.SchemaEvolution;
import io.github.flinkdelta.sink.DeltaSink;
import io.github.flinkdelta.sink.DeltaSinkOptions;
import io.github.flinkdelta.sink.dynamic.DynamicDeltaSinkBuilder;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.cdc.common.configuration.ConfigOption;
import org.apache.flink.cdc.common.configuration.Configuration;
import org.apache.flink.cdc.common.event.Event;
import org.apache.flink.cdc.common.event.TableId;
import org.apache.flink.cdc.common.factories.DataSinkFactory;
import org.apache.flink.cdc.common.factories.FactoryHelper;
import org.apache.flink.cdc.common.pipeline.PipelineOptions;
import org.apache.flink.cdc.common.sink.DataSink;

/**
 * Flink CDC's factory of the {@code delta} pipeline sink ({@code sink: type: delta}); its options
 * are {@link DeltaPipelineOptions}.
 */
@PublicEvolving
public final class DeltaDataSinkFactory implements DataSinkFactory {

  /** The sink's type in a pipeline definition. */
  public static final String IDENTIFIER = "delta";

  /** The catalog options besides the warehouse: the connector's {@code uc.*} options. */
  private static final String UC_PREFIX = "uc.";

  @Override
  public String identifier() {
    return IDENTIFIER;
  }

  @Override
  public Set<ConfigOption<?>> requiredOptions() {
    return Set.of();
  }

  @Override
  public Set<ConfigOption<?>> optionalOptions() {
    return Set.of(
        DeltaPipelineOptions.TABLE_NAME,
        DeltaPipelineOptions.NAMESPACE,
        DeltaPipelineOptions.PARTITION_KEY,
        DeltaPipelineOptions.UID_PREFIX);
  }

  @Override
  public DataSink createDataSink(Context context) {
    FactoryHelper.createFactoryHelper(this, context)
        .validateExcept(
            DeltaPipelineOptions.CATALOG_PREFIX,
            DeltaPipelineOptions.TABLE_PREFIX,
            DeltaPipelineOptions.SINK_PREFIX,
            HadoopOptions.PREFIX);
    Configuration config = context.getFactoryConfiguration();
    Map<String, String> all = config.toMap();

    FlinkCdcEvents events =
        FlinkCdcEvents.tables(config.get(DeltaPipelineOptions.TABLE_NAME))
            .withTableProperties(prefixed(all, DeltaPipelineOptions.TABLE_PREFIX));
    for (Map.Entry<TableId, List<String>> partitioned :
        partitionKeys(config.get(DeltaPipelineOptions.PARTITION_KEY)).entrySet()) {
      events =
          events.withPartitionColumns(
              events.tableName(partitioned.getKey()), partitioned.getValue());
    }

    org.apache.flink.configuration.Configuration options = sinkOptions(all);
    String uid = config.get(DeltaPipelineOptions.UID_PREFIX);
    DynamicDeltaSinkBuilder<Event> builder =
        DeltaSink.dynamic(events)
            .options(options)
            .hadoopOptions(HadoopOptions.from("The delta pipeline sink", all))
            .uidPrefix(uid);
    if (options.getOptional(DeltaSinkOptions.SCHEMA_EVOLUTION).isEmpty()) {
      // Flink CDC widens column types as sources do; the Delta table follows where Delta can.
      builder.schemaEvolution(SchemaEvolution.WIDEN);
    }
    String warehouse =
        all.get(DeltaPipelineOptions.CATALOG_PREFIX + DeltaPipelineOptions.WAREHOUSE);
    if ((warehouse == null) == !UnityCatalogOptions.isSet(options)) {
      throw new IllegalArgumentException(
          "The delta pipeline sink needs either '"
              + DeltaPipelineOptions.CATALOG_PREFIX
              + DeltaPipelineOptions.WAREHOUSE
              + "' (the root of path tables) or '"
              + DeltaPipelineOptions.CATALOG_PREFIX
              + "uri' (a Unity Catalog server), not both and not neither.");
    }
    if (warehouse != null) {
      builder.tableRoot(warehouse);
    }
    config.getOptional(DeltaPipelineOptions.NAMESPACE).ifPresent(builder::defaultNamespace);
    return new DeltaDataSink(
        events,
        builder.build(),
        uid,
        context.getPipelineConfiguration().get(PipelineOptions.PIPELINE_SCHEMA_OPERATOR_UID));
  }

  /**
   * The connector's options: {@code sink.*} as they are, {@code catalog.properties.*} as the
   * connector's {@code uc.*} options.
   */
  private static org.apache.flink.configuration.Configuration sinkOptions(Map<String, String> all) {
    Map<String, String> options = new HashMap<>();
    Set<String> unknown = new TreeSet<>();
    Set<String> catalogKeys =
        UnityCatalogOptions.ALL.stream()
            .map(option -> option.key().substring(UC_PREFIX.length()))
            .collect(Collectors.toSet());
    all.forEach(
        (key, value) -> {
          if (key.startsWith(DeltaPipelineOptions.SINK_PREFIX)) {
            options.put(key, value);
          } else if (key.startsWith(DeltaPipelineOptions.CATALOG_PREFIX)) {
            String name = key.substring(DeltaPipelineOptions.CATALOG_PREFIX.length());
            if (catalogKeys.contains(name)) {
              options.put(UC_PREFIX + name, value);
            } else if (!name.equals(DeltaPipelineOptions.WAREHOUSE)) {
              unknown.add(key);
            }
          }
        });
    if (!unknown.isEmpty()) {
      throw new IllegalArgumentException(
          "The delta pipeline sink does not know "
              + unknown
              + ". Its catalog options are "
              + DeltaPipelineOptions.CATALOG_PREFIX
              + DeltaPipelineOptions.WAREHOUSE
              + " for path tables, or "
              + catalogKeys.stream()
                  .sorted()
                  .map(name -> DeltaPipelineOptions.CATALOG_PREFIX + name)
                  .toList()
              + " for Unity Catalog.");
    }
    return org.apache.flink.configuration.Configuration.fromMap(options);
  }

  private static Map<String, String> prefixed(Map<String, String> all, String prefix) {
    Map<String, String> found = new HashMap<>();
    all.forEach(
        (key, value) -> {
          if (key.startsWith(prefix)) {
            found.put(key.substring(prefix.length()), value);
          }
        });
    return found;
  }

  /** {@code db.orders:day;db.items:country,day} as the columns per table, in Flink CDC's syntax. */
  static Map<TableId, List<String>> partitionKeys(String option) {
    Map<TableId, List<String>> keys = new HashMap<>();
    if (option == null || option.isBlank()) {
      return keys;
    }
    for (String table : option.split(";")) {
      if (table.isBlank()) {
        continue;
      }
      int colon = table.indexOf(':');
      List<String> columns =
          colon < 0
              ? List.of()
              : Arrays.stream(table.substring(colon + 1).split(","))
                  .map(String::trim)
                  .filter(column -> !column.isEmpty())
                  .toList();
      if (colon <= 0 || columns.isEmpty()) {
        throw new IllegalArgumentException(
            String.format(
                "'%s' holds '%s', which is not a table and its columns: write"
                    + " 'db.orders:day;db.items:country,day'",
                DeltaPipelineOptions.PARTITION_KEY.key(), table.trim()));
      }
      keys.put(TableId.parse(table.substring(0, colon).trim()), columns);
    }
    return keys;
  }
}
