/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.source;

import io.delta.kernel.Snapshot;
import io.delta.kernel.defaults.engine.DefaultEngine;
import io.delta.kernel.expressions.Predicate;
import io.github.flinkdelta.common.TableTarget;
import io.github.flinkdelta.common.UnityCatalogOptions;
import io.github.flinkdelta.core.catalog.TableHistory;
import io.github.flinkdelta.core.catalog.TableLocator;
import io.github.flinkdelta.core.catalog.TableReference;
import io.github.flinkdelta.core.read.ReadColumns;
import io.github.flinkdelta.core.read.ReadFilter;
import io.github.flinkdelta.core.read.RowFilter;
import io.github.flinkdelta.core.read.WatermarkColumn;
import io.github.flinkdelta.core.storage.HadoopConfigurations;
import io.github.flinkdelta.source.DeltaSourceOptions.ChangeCommits;
import io.github.flinkdelta.source.DeltaSourceOptions.ScanMode;
import io.github.flinkdelta.source.DeltaSourceOptions.StartupMode;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;

/**
 * Builds a {@link DeltaSource}. Setters only record; {@link #build()} checks everything at once,
 * finds the table and resolves the columns read against its schema.
 *
 * <pre>{@code
 * DeltaSource source = DeltaSource.builder()
 *     .tablePath("s3a://bucket/events")
 *     .columns("id", "event_date", "payload")
 *     .continuous()
 *     .build();
 * env.fromSource(source, WatermarkStrategy.noWatermarks(), "events");
 * }</pre>
 */
@PublicEvolving
public final class DeltaSourceBuilder {

  private String tablePath;
  private String tableName;
  private UnityCatalogConnection unityCatalog;
  private List<String> columns = List.of();
  private final Map<String, Integer> timestampPrecisions = new LinkedHashMap<>();
  private Predicate filter;
  private long limit = -1;
  private final Map<String, String> hadoopOptions = new LinkedHashMap<>();
  private final Configuration options = new Configuration();

  DeltaSourceBuilder() {}

  /** The table's root location, e.g. {@code file:///data/events} or {@code s3a://bucket/t}. */
  public DeltaSourceBuilder tablePath(String path) {
    this.tablePath = path;
    return this;
  }

  /**
   * A Unity Catalog table, {@code catalog.schema.table}, as the alternative to {@link #tablePath}.
   * Needs {@link #unityCatalog} or the connection's options.
   */
  public DeltaSourceBuilder tableName(String catalogSchemaTable) {
    this.tableName = catalogSchemaTable;
    return this;
  }

  /** The Unity Catalog server that holds {@link #tableName}. */
  public DeltaSourceBuilder unityCatalog(UnityCatalogConnection connection) {
    this.unityCatalog = connection;
    return this;
  }

  /** The columns to read, in the order rows hold them; every column of the table by default. */
  public DeltaSourceBuilder columns(String... names) {
    this.columns = List.of(names);
    return this;
  }

  /**
   * Emits the timestamp column {@code column} as {@code TIMESTAMP(precision)} (0 to 6) instead of
   * Delta's microseconds: for a column that serves as a time attribute, which Flink declares at
   * millisecond precision at most. At a precision of 3 or less the values are emitted in
   * milliseconds, their microseconds dropped, as Flink's serializers drop them.
   */
  public DeltaSourceBuilder timestampPrecision(String column, int precision) {
    timestampPrecisions.put(column, precision);
    return this;
  }

  /**
   * Reads only rows {@code predicate} holds for: data files whose partition values or statistics
   * rule every such row out are not read (Kernel's data skipping), and rows that fail it are
   * dropped. It may compare top-level columns with literals ({@code =, <, <=, >, >=}), test them
   * for null, and combine such tests with {@code AND}, {@code OR} and {@code NOT}; its columns must
   * be among those read.
   */
  public DeltaSourceBuilder filter(Predicate predicate) {
    this.filter = predicate;
    return this;
  }

  /**
   * A bounded read's readers each stop after this many rows: a query that needs only so many rows
   * ends early. The rows are whichever came first.
   */
  public DeltaSourceBuilder limit(long rows) {
    this.limit = rows;
    return this;
  }

  /** Read one version of the table and end: the latest, unless a version or time is given. */
  public DeltaSourceBuilder bounded() {
    options.set(DeltaSourceOptions.SCAN_MODE, ScanMode.BOUNDED);
    return this;
  }

  /** Read the latest version's rows, then the rows each new version adds. The default. */
  public DeltaSourceBuilder continuous() {
    options.set(DeltaSourceOptions.SCAN_MODE, ScanMode.CONTINUOUS);
    return this;
  }

  /**
   * Takes watermarks from a timestamp column's per-file least values: files are read oldest first
   * and each file's rows follow a watermark just below its least value ({@link
   * DeltaSourceOptions#WATERMARK_COLUMN}). Pass {@code WatermarkStrategy.noWatermarks()} to {@code
   * fromSource}: the source's own watermarks and the rows' timestamps then reach the job.
   */
  public DeltaSourceBuilder watermarkColumn(String column) {
    options.set(DeltaSourceOptions.WATERMARK_COLUMN, column);
    return this;
  }

  /** A bounded read of {@code version}; a continuous read of the versions from it on. */
  public DeltaSourceBuilder version(long version) {
    options.set(DeltaSourceOptions.STARTUP_MODE, StartupMode.VERSION);
    options.set(DeltaSourceOptions.STARTUP_VERSION, version);
    return this;
  }

  /**
   * A bounded read of the last version committed at or before {@code epochMillis}; a continuous
   * read of the versions committed at or after it.
   */
  public DeltaSourceBuilder timestamp(long epochMillis) {
    options.set(DeltaSourceOptions.STARTUP_MODE, StartupMode.TIMESTAMP);
    options.set(DeltaSourceOptions.STARTUP_TIMESTAMP, epochMillis);
    return this;
  }

  /** A continuous read of only the versions committed after the source starts. */
  public DeltaSourceBuilder latest() {
    options.set(DeltaSourceOptions.STARTUP_MODE, StartupMode.LATEST);
    return this;
  }

  /** A Hadoop file system option, e.g. {@code fs.s3a.endpoint}; values never reach logs. */
  public DeltaSourceBuilder hadoopOption(String key, String value) {
    hadoopOptions.put(key, value);
    return this;
  }

  /** Hadoop file system options, added to those set before. */
  public DeltaSourceBuilder hadoopOptions(Map<String, String> options) {
    hadoopOptions.putAll(options);
    return this;
  }

  /** Sets one option of {@link DeltaSourceOptions} or {@link UnityCatalogOptions}. */
  public <T> DeltaSourceBuilder option(ConfigOption<T> option, T value) {
    options.set(option, value);
    return this;
  }

  /** Adds every option that {@code config} sets, over those set before. */
  public DeltaSourceBuilder options(ReadableConfig config) {
    options.addAll(Configuration.fromMap(config.toMap()));
    return this;
  }

  /**
   * Checks the configuration, finds the table and resolves the columns against its schema (of the
   * version a bounded read reads, else the latest).
   *
   * @throws IllegalArgumentException naming every missing or invalid setting and every column the
   *     table does not have
   * @throws IllegalStateException when the table does not exist
   */
  public DeltaSource build() {
    List<String> problems = new ArrayList<>();
    TableTarget target =
        TableTarget.of("DeltaSource", tablePath, tableName, unityCatalog, options, problems);
    boolean bounded =
        options.getOptional(DeltaSourceOptions.SCAN_MODE).orElse(ScanMode.CONTINUOUS)
            == ScanMode.BOUNDED;
    StartupMode startup = options.get(DeltaSourceOptions.STARTUP_MODE);
    checkStartup(bounded, startup, problems);
    checkReadOptions(bounded, problems);
    ReadFilter readFilter = readFilter(problems);
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException(
          "Cannot build DeltaSource: " + String.join("; ", problems));
    }
    org.apache.hadoop.conf.Configuration hadoopConf = HadoopConfigurations.of(hadoopOptions);
    TableLocator locator = locate(target.reference(), hadoopConf);
    long startVersion = options.getOptional(DeltaSourceOptions.STARTUP_VERSION).orElse(-1L);
    long startTimestamp = options.getOptional(DeltaSourceOptions.STARTUP_TIMESTAMP).orElse(-1L);
    ResolvedColumns resolved;
    org.apache.hadoop.conf.Configuration readConf = locator.readConf(hadoopConf);
    try (TableHistory history = locator.history(readConf)) {
      DefaultEngine engine = DefaultEngine.create(readConf);
      Snapshot schemaOf =
          !bounded
              ? history.latest(engine)
              : switch (startup) {
                case VERSION -> history.atVersion(engine, startVersion);
                case TIMESTAMP -> history.atTimestamp(engine, startTimestamp);
                default -> history.latest(engine);
              };
      resolved = resolve(locator.name(), schemaOf, readFilter);
    }
    return new DeltaSource(
        new DeltaSourceConfig(
            locator,
            hadoopOptions,
            resolved.columns(),
            bounded,
            startup,
            startVersion,
            startTimestamp,
            options.get(DeltaSourceOptions.POLL_INTERVAL),
            options.get(DeltaSourceOptions.MAX_FILES_PER_POLL),
            options.get(DeltaSourceOptions.MAX_PLANNING_FAILURES),
            options.get(DeltaSourceOptions.CHANGE_COMMITS),
            readFilter,
            limit,
            resolved.watermark()));
  }

  /** The columns a read reads, and its watermark column or null, resolved against a schema. */
  private record ResolvedColumns(ReadColumns columns, WatermarkColumn watermark) {}

  private void checkStartup(boolean bounded, StartupMode startup, List<String> problems) {
    if (startup == StartupMode.VERSION
        && options.getOptional(DeltaSourceOptions.STARTUP_VERSION).isEmpty()) {
      problems.add(
          "'"
              + DeltaSourceOptions.STARTUP_MODE.key()
              + "' is VERSION: set '"
              + DeltaSourceOptions.STARTUP_VERSION.key()
              + "' to the version to start from");
    }
    if (startup == StartupMode.TIMESTAMP
        && options.getOptional(DeltaSourceOptions.STARTUP_TIMESTAMP).isEmpty()) {
      problems.add(
          "'"
              + DeltaSourceOptions.STARTUP_MODE.key()
              + "' is TIMESTAMP: set '"
              + DeltaSourceOptions.STARTUP_TIMESTAMP.key()
              + "' to the time to start from, in epoch milliseconds");
    }
    if (bounded && startup == StartupMode.LATEST) {
      problems.add(
          "a bounded read reads one version: '"
              + DeltaSourceOptions.STARTUP_MODE.key()
              + "' LATEST is for continuous reads");
    }
  }

  private void checkReadOptions(boolean bounded, List<String> problems) {
    if (limit >= 0 && !bounded) {
      problems.add("a limit is for bounded reads; a continuous read does not end");
    }
    if (options.getOptional(DeltaSourceOptions.WATERMARK_COLUMN).isPresent()
        && !bounded
        && options.get(DeltaSourceOptions.CHANGE_COMMITS) == ChangeCommits.CHANGELOG) {
      problems.add(
          "'"
              + DeltaSourceOptions.WATERMARK_COLUMN.key()
              + "' orders files by time, but a CHANGELOG read emits them in the table's order:"
              + " leave one of them out");
    }
    if (options.get(DeltaSourceOptions.MAX_PLANNING_FAILURES) < -1) {
      problems.add(
          "'" + DeltaSourceOptions.MAX_PLANNING_FAILURES.key() + "' must be -1 (no limit) or more");
    }
    if (options.get(DeltaSourceOptions.MAX_FILES_PER_POLL) < 1) {
      problems.add("'" + DeltaSourceOptions.MAX_FILES_PER_POLL.key() + "' must be at least 1");
    }
  }

  private ReadFilter readFilter(List<String> problems) {
    if (filter == null) {
      return null;
    }
    try {
      return ReadFilter.of(filter);
    } catch (IllegalArgumentException e) {
      problems.add(e.getMessage());
      return null;
    }
  }

  private static TableLocator locate(
      TableReference reference, org.apache.hadoop.conf.Configuration hadoopConf) {
    return reference
        .find(hadoopConf)
        .orElseThrow(
            () ->
                new IllegalStateException(
                    "Cannot read "
                        + reference.description()
                        + ": there is no table there. Check the path or name."));
  }

  /**
   * Resolves the columns, their timestamp precisions, the watermark column and the filter against
   * the schema of {@code schemaOf}; fails naming the table and any column it does not have.
   */
  private ResolvedColumns resolve(String table, Snapshot schemaOf, ReadFilter readFilter) {
    ReadColumns read = ReadColumns.of(table, schemaOf, columns);
    for (Map.Entry<String, Integer> precision : timestampPrecisions.entrySet()) {
      read = read.withTimestampPrecision(precision.getKey(), precision.getValue());
    }
    WatermarkColumn watermark =
        options
            .getOptional(DeltaSourceOptions.WATERMARK_COLUMN)
            .map(
                name ->
                    WatermarkColumn.of(
                        table, schemaOf.getSchema(), schemaOf.getPartitionColumnNames(), name))
            .orElse(null);
    if (readFilter != null) {
      RowFilter.of(readFilter, read);
      readFilter.toKernel(schemaOf.getSchema());
    }
    return new ResolvedColumns(read, watermark);
  }
}
