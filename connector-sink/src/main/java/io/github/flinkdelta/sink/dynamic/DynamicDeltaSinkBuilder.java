/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.dynamic;

import io.github.flinkdelta.common.UnityCatalogOptions;
import io.github.flinkdelta.core.config.SchemaEvolution;
import io.github.flinkdelta.core.write.FileWriteOptions;
import io.github.flinkdelta.sink.DeltaSinkOptions;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;

/**
 * Builds a {@link DynamicDeltaSink}. Setters only record; {@link #build()} checks everything at
 * once and fails with every problem listed. Tables are found and created when records name them,
 * not here.
 *
 * <pre>{@code
 * DynamicDeltaSink<Order> sink = DeltaSink.dynamic(new OrderTables())
 *     .tableRoot("s3a://bucket/warehouse")           // or unityCatalog(...) with defaultNamespace
 *     .option(DeltaSinkOptions.TARGET_FILE_SIZE, MemorySize.parse("128mb"))
 *     .build();
 * orders.sinkTo(sink).uid("orders-delta-sink");
 * }</pre>
 *
 * @param <T> the type of the stream's elements
 */
@PublicEvolving
public final class DynamicDeltaSinkBuilder<T> {

  /** Options of the sink as a whole, which no single table may set. */
  private static final List<ConfigOption<?>> SINK_WIDE =
      List.of(
          DynamicSinkOptions.COMMIT_PARALLELISM,
          DynamicSinkOptions.COMMIT_INTERVAL,
          DynamicSinkOptions.MAX_CACHED_TABLES,
          DynamicSinkOptions.FOLLOW_INTERVAL,
          DynamicSinkOptions.REFUSED_RECORDS,
          DynamicSinkOptions.DEAD_LETTER_TABLE);

  private final DynamicRecordGenerator<T> generator;
  private String tableRoot;
  private UnityCatalogConnection unityCatalog;
  private String defaultNamespace;
  private KeySelector<T, ?> distribution;
  private final Map<String, String> hadoopOptions = new LinkedHashMap<>();
  private final Configuration options = new Configuration();
  private final Map<String, Configuration> tableOptions = new LinkedHashMap<>();
  private String uidPrefix;

  /** Use {@link io.github.flinkdelta.sink.DeltaSink#dynamic}. */
  public DynamicDeltaSinkBuilder(DynamicRecordGenerator<T> generator) {
    this.generator = Objects.requireNonNull(generator, "generator");
  }

  /**
   * Path tables under {@code root}: a record's table {@code db.orders} is the table at {@code
   * <root>/db/orders}.
   */
  public DynamicDeltaSinkBuilder<T> tableRoot(String root) {
    this.tableRoot = root;
    return this;
  }

  /**
   * Unity Catalog tables, as the alternative to {@link #tableRoot}: a record's table is {@code
   * catalog.schema.table}, or a shorter name completed by {@link #defaultNamespace}. Missing tables
   * are created as managed tables. Instead, the connection may be given as {@link
   * UnityCatalogOptions} through {@link #option}.
   */
  public DynamicDeltaSinkBuilder<T> unityCatalog(UnityCatalogConnection connection) {
    this.unityCatalog = connection;
    return this;
  }

  /** The catalog, or {@code catalog.schema}, that completes records' shorter table names. */
  public DynamicDeltaSinkBuilder<T> defaultNamespace(String namespace) {
    this.defaultNamespace = namespace;
    return this;
  }

  /**
   * Sends elements to the writers by {@code key} (e.g. their source table), so that each writer
   * subtask writes fewer tables and a table's elements keep their order. By default elements stay
   * on the subtask that produced them.
   */
  public <K> DynamicDeltaSinkBuilder<T> distributeBy(KeySelector<T, K> key) {
    this.distribution = key;
    return this;
  }

  /** A Hadoop file system option, e.g. {@code fs.s3a.endpoint}; values never reach logs. */
  public DynamicDeltaSinkBuilder<T> hadoopOption(String key, String value) {
    hadoopOptions.put(key, value);
    return this;
  }

  /** Hadoop file system options, added to those set before. */
  public DynamicDeltaSinkBuilder<T> hadoopOptions(Map<String, String> options) {
    hadoopOptions.putAll(options);
    return this;
  }

  /**
   * How tables follow their records' row types (see {@link DeltaSinkOptions#SCHEMA_EVOLUTION}):
   * {@code ADD_COLUMNS} by default.
   */
  public DynamicDeltaSinkBuilder<T> schemaEvolution(SchemaEvolution mode) {
    options.set(DeltaSinkOptions.SCHEMA_EVOLUTION, mode);
    return this;
  }

  /**
   * Sets one option of {@link DeltaSinkOptions}, {@link DynamicSinkOptions} or {@link
   * UnityCatalogOptions} for every table.
   */
  public <V> DynamicDeltaSinkBuilder<T> option(ConfigOption<V> option, V value) {
    options.set(option, value);
    return this;
  }

  /** Adds every option that {@code config} sets, over those set before. */
  public DynamicDeltaSinkBuilder<T> options(ReadableConfig config) {
    options.addAll(Configuration.fromMap(config.toMap()));
    return this;
  }

  /**
   * Sets one option of {@link DeltaSinkOptions} for table {@code table} alone (named as records
   * name it), over the sink's.
   */
  public <V> DynamicDeltaSinkBuilder<T> tableOption(String table, ConfigOption<V> option, V value) {
    tableOptions.computeIfAbsent(table, name -> new Configuration()).set(option, value);
    return this;
  }

  /**
   * Gives the sink's internal aggregator the uid {@code <prefix>-aggregator}, so a savepoint maps
   * back onto it after the job changes; set a uid on the sink itself with {@code
   * sinkTo(sink).uid(...)} too.
   */
  public DynamicDeltaSinkBuilder<T> uidPrefix(String prefix) {
    this.uidPrefix = prefix;
    return this;
  }

  /**
   * Checks the configuration.
   *
   * @throws IllegalArgumentException naming every missing or invalid setting
   */
  public DynamicDeltaSink<T> build() {
    List<String> problems = new ArrayList<>();
    DynamicTableNames names = names(problems);
    checkOptions(options, "the sink", problems);
    tableOptions.forEach((table, own) -> checkOptions(merged(own), "table " + table, problems));
    tableOptions.forEach(
        (table, own) ->
            SINK_WIDE.stream()
                .filter(own::contains)
                .forEach(
                    option ->
                        problems.add(
                            "table "
                                + table
                                + ": '"
                                + option.key()
                                + "' applies to the whole sink; set it with option(...), not"
                                + " tableOption(...)")));
    options
        .getOptional(DynamicSinkOptions.DEAD_LETTER_TABLE)
        .filter(table -> names != null)
        .ifPresent(
            table -> {
              try {
                names.fullName(table);
              } catch (IllegalArgumentException e) {
                problems.add(
                    "'" + DynamicSinkOptions.DEAD_LETTER_TABLE.key() + "': " + e.getMessage());
              }
            });
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException(
          "Cannot build DynamicDeltaSink: " + String.join("; ", problems));
    }
    Map<String, Map<String, String>> ownOptions = new HashMap<>();
    tableOptions.forEach((table, own) -> ownOptions.put(table, withoutConnection(own)));
    return new DynamicDeltaSink<>(
        new DynamicSinkConfig(
            names,
            withoutConnection(options),
            ownOptions,
            hadoopOptions,
            options.get(DeltaSinkOptions.APP_ID),
            UUID.randomUUID().toString()),
        generator,
        distribution,
        uidPrefix);
  }

  /**
   * The options the operators need: the catalog connection, whose token is a secret, travels as the
   * connection itself, never as plain option values.
   */
  private static Map<String, String> withoutConnection(Configuration config) {
    Map<String, String> values = new HashMap<>(config.toMap());
    UnityCatalogOptions.ALL.forEach(option -> values.remove(option.key()));
    return values;
  }

  private DynamicTableNames names(List<String> problems) {
    UnityCatalogConnection connection = unityCatalog;
    if (connection == null && UnityCatalogOptions.isSet(options)) {
      try {
        connection = UnityCatalogOptions.connection(options, "DynamicDeltaSink");
      } catch (IllegalArgumentException e) {
        problems.add(e.getMessage());
        return null;
      }
    }
    if ((tableRoot == null || tableRoot.isBlank()) == (connection == null)) {
      problems.add(
          "set either tableRoot(\"file:///...\" or \"s3a://...\") for path tables, or"
              + " unityCatalog(...) for Unity Catalog tables");
      return null;
    }
    if (connection == null) {
      return new DynamicTableNames.UnderRoot(tableRoot);
    }
    if (defaultNamespace != null && !defaultNamespace.matches("[^.]+(\\.[^.]+)?")) {
      problems.add(
          "defaultNamespace(\""
              + defaultNamespace
              + "\") is neither 'catalog' nor 'catalog.schema'");
    }
    return new DynamicTableNames.InUnityCatalog(connection, defaultNamespace);
  }

  private Configuration merged(Configuration own) {
    Configuration merged = new Configuration(options);
    merged.addAll(own);
    return merged;
  }

  private static void checkOptions(Configuration config, String owner, List<String> problems) {
    try {
      FileWriteOptions.from(config);
    } catch (IllegalArgumentException e) {
      problems.add(owner + ": " + e.getMessage());
    }
    if (config.get(DynamicSinkOptions.COMMIT_PARALLELISM) < 1) {
      problems.add(
          owner + ": '" + DynamicSinkOptions.COMMIT_PARALLELISM.key() + "' must be at least 1");
    }
    if (config.get(DynamicSinkOptions.MAX_CACHED_TABLES) < 1) {
      problems.add(
          owner + ": '" + DynamicSinkOptions.MAX_CACHED_TABLES.key() + "' must be at least 1");
    }
    if (config.get(DynamicSinkOptions.REFUSED_RECORDS) == RefusedRecordPolicy.DEAD_LETTER
        && config.getOptional(DynamicSinkOptions.DEAD_LETTER_TABLE).isEmpty()) {
      problems.add(
          owner
              + ": '"
              + DynamicSinkOptions.REFUSED_RECORDS.key()
              + "' = DEAD_LETTER needs '"
              + DynamicSinkOptions.DEAD_LETTER_TABLE.key()
              + "', the table refused records go to");
    }
  }
}
