/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.catalog;

import io.github.flinkdelta.table.DeltaDynamicTableFactory;
import io.github.flinkdelta.table.DeltaDynamicTableSink;
import io.github.flinkdelta.table.DeltaDynamicTableSource;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.ObjectIdentifier;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.factories.DynamicTableSinkFactory;
import org.apache.flink.table.factories.DynamicTableSourceFactory;
import org.apache.flink.table.types.logical.RowType;

/**
 * Makes the sink and the source of a table in a {@link UnityCatalogCatalog}: the catalog's
 * connection, the table's three-part name, and the write or read options among the table's
 * properties and the statement's {@code OPTIONS} hints. Keys under {@code sink.} must be write
 * options and keys under {@code scan.} read options; other keys are table properties and concern
 * neither.
 */
@Internal
final class CatalogTableFactory implements DynamicTableSinkFactory, DynamicTableSourceFactory {

  private static final String SINK_PREFIX = "sink.";
  private static final String SCAN_PREFIX = "scan.";

  private final UnityCatalogConnection connection;
  private final String ucCatalog;
  private final Map<String, String> hadoopOptions;

  CatalogTableFactory(
      UnityCatalogConnection connection, String ucCatalog, Map<String, String> hadoopOptions) {
    this.connection = connection;
    this.ucCatalog = ucCatalog;
    this.hadoopOptions = Map.copyOf(hadoopOptions);
  }

  @Override
  public String factoryIdentifier() {
    return UnityCatalogCatalogFactory.IDENTIFIER;
  }

  @Override
  public Set<ConfigOption<?>> requiredOptions() {
    return Set.of();
  }

  @Override
  public Set<ConfigOption<?>> optionalOptions() {
    Set<ConfigOption<?>> options = new HashSet<>(DeltaDynamicTableFactory.WRITE_OPTIONS);
    options.addAll(DeltaDynamicTableFactory.READ_OPTIONS);
    return options;
  }

  @Override
  public DynamicTableSource createDynamicTableSource(Context context) {
    String table = name(context);
    Map<String, String> readOptions =
        options(context, table, SCAN_PREFIX, DeltaDynamicTableFactory.READ_OPTIONS, "read");
    return DeltaDynamicTableSource.of(
        table,
        DeltaDynamicTableFactory.readOptions(Configuration.fromMap(readOptions), context),
        context,
        builder -> builder.unityCatalog(connection).tableName(table).hadoopOptions(hadoopOptions));
  }

  private String name(Context context) {
    ObjectIdentifier id = context.getObjectIdentifier();
    return ucCatalog + "." + id.getDatabaseName() + "." + id.getObjectName();
  }

  /** The options under {@code prefix}, each of which must be one of {@code known}. */
  private static Map<String, String> options(
      Context context, String table, String prefix, Set<ConfigOption<?>> known, String kind) {
    Set<String> keys = new TreeSet<>();
    known.forEach(o -> keys.add(o.key()));
    Map<String, String> options = new HashMap<>();
    context
        .getCatalogTable()
        .getOptions()
        .forEach(
            (key, value) -> {
              if (key.startsWith(prefix)) {
                if (!keys.contains(key)) {
                  throw new ValidationException(
                      String.format(
                          "Table %s has an unknown %s option '%s'. %s options: %s",
                          table,
                          kind,
                          key,
                          Character.toUpperCase(kind.charAt(0)) + kind.substring(1),
                          String.join(", ", keys)));
                }
                options.put(key, value);
              }
            });
    return options;
  }

  @Override
  public DynamicTableSink createDynamicTableSink(Context context) {
    String table = name(context);
    Map<String, String> sinkOptions =
        options(context, table, SINK_PREFIX, DeltaDynamicTableFactory.WRITE_OPTIONS, "write");
    RowType rowType = (RowType) context.getPhysicalRowDataType().getLogicalType();
    List<String> partitions = context.getCatalogTable().getPartitionKeys();
    return new DeltaDynamicTableSink(
        table,
        Configuration.fromMap(sinkOptions),
        rowType,
        partitions,
        DeltaDynamicTableFactory.primaryKey(context),
        builder -> builder.unityCatalog(connection).tableName(table).hadoopOptions(hadoopOptions));
  }
}
