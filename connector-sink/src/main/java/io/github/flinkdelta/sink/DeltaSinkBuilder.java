/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink;

import io.github.flinkdelta.common.TableTarget;
import io.github.flinkdelta.common.UnityCatalogOptions;
import io.github.flinkdelta.core.catalog.TableDefinition;
import io.github.flinkdelta.core.catalog.TableLocator;
import io.github.flinkdelta.core.config.SchemaEvolution;
import io.github.flinkdelta.core.maintenance.CompactionOptions;
import io.github.flinkdelta.core.maintenance.CompactionTrigger;
import io.github.flinkdelta.core.schema.TableFeatureChecks;
import io.github.flinkdelta.core.table.DeltaTable;
import io.github.flinkdelta.core.table.TableRequest;
import io.github.flinkdelta.core.types.DeltaTypes;
import io.github.flinkdelta.core.upsert.KeyColumns;
import io.github.flinkdelta.core.upsert.UpsertTables;
import io.github.flinkdelta.core.write.FileLayout;
import io.github.flinkdelta.core.write.FileWriteOptions;
import io.github.flinkdelta.sink.internal.DeltaSinkConfig;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.types.logical.RowType;

/**
 * Builds a {@link DeltaSink}. Setters only record; {@link #build()} checks everything at once,
 * opens the table (creating it when asked to), and fails with every problem listed.
 *
 * <pre>{@code
 * DeltaSink sink = DeltaSink.builder()
 *     .tablePath("s3a://bucket/events")
 *     .rowType(rowType)
 *     .partitionColumns("event_date")
 *     .option(DeltaSinkOptions.TARGET_FILE_SIZE, MemorySize.parse("256mb"))
 *     .build();
 * stream.sinkTo(sink).uid("events-delta-sink");
 * }</pre>
 */
@PublicEvolving
public final class DeltaSinkBuilder {

  private static final String COLUMN_MAPPING_MODE = "delta.columnMapping.mode";

  private String tablePath;
  private String tableName;
  private UnityCatalogConnection unityCatalog;
  private RowType rowType;
  private List<String> partitionColumns = List.of();
  private List<String> primaryKey;
  private final Map<String, String> hadoopOptions = new LinkedHashMap<>();
  private final Map<String, String> tableProperties = new LinkedHashMap<>();
  private final Configuration options = new Configuration();
  private String uidPrefix;

  DeltaSinkBuilder() {}

  /** The table's root location, e.g. {@code file:///data/events} or {@code s3a://bucket/t}. */
  public DeltaSinkBuilder tablePath(String path) {
    this.tablePath = path;
    return this;
  }

  /**
   * A Unity Catalog table, {@code catalog.schema.table}, as the alternative to {@link #tablePath}.
   * Managed tables are written through catalog-managed commits; with create-if-missing, a missing
   * table is created as a managed table. Needs {@link #unityCatalog}.
   */
  public DeltaSinkBuilder tableName(String catalogSchemaTable) {
    this.tableName = catalogSchemaTable;
    return this;
  }

  /**
   * The Unity Catalog server that holds {@link #tableName}. Instead, the connection may be given as
   * {@link UnityCatalogOptions} through {@link #options}.
   */
  public DeltaSinkBuilder unityCatalog(UnityCatalogConnection connection) {
    this.unityCatalog = connection;
    return this;
  }

  /** The type of the rows the sink receives. */
  public DeltaSinkBuilder rowType(RowType type) {
    this.rowType = type;
    return this;
  }

  /**
   * Partition columns, used when the sink creates the table and checked against an existing one.
   */
  public DeltaSinkBuilder partitionColumns(String... columns) {
    this.partitionColumns = List.of(columns);
    return this;
  }

  /**
   * The table's primary key. With a key the sink takes a changelog: an {@code INSERT} or {@code
   * UPDATE_AFTER} row replaces the live row of its key (or adds one), a {@code DELETE} or {@code
   * UPDATE_BEFORE} row deletes it (a delete of an absent key does nothing). Rows reach the writers
   * by a hash of the key; each writer keeps an index of its keys' rows in Flink keyed state, and
   * every commit marks replaced rows deleted with deletion vectors. The key may leave out the
   * partition columns: a key that moves to another partition leaves its old one.
   */
  public DeltaSinkBuilder primaryKey(String... columns) {
    this.primaryKey = List.of(columns);
    return this;
  }

  /** A Hadoop file system option, e.g. {@code fs.s3a.endpoint}; values never reach logs. */
  public DeltaSinkBuilder hadoopOption(String key, String value) {
    hadoopOptions.put(key, value);
    return this;
  }

  /** Hadoop file system options, added to those set before. */
  public DeltaSinkBuilder hadoopOptions(Map<String, String> options) {
    hadoopOptions.putAll(options);
    return this;
  }

  /**
   * Table properties for a table the sink creates, e.g. {@code delta.checkpointInterval}. Created
   * tables have {@code delta.columnMapping.mode = name} unless this sets it.
   */
  public DeltaSinkBuilder tableProperty(String key, String value) {
    tableProperties.put(key, value);
    return this;
  }

  /**
   * How the table follows the rows' columns (see {@link DeltaSinkOptions#SCHEMA_EVOLUTION}): {@code
   * ADD_COLUMNS} by default, {@code WIDEN} to also widen types and relax NOT NULL, {@code NONE} to
   * refuse any difference. The table is changed by {@link #build()}, before any row of the new
   * shape is written.
   */
  public DeltaSinkBuilder schemaEvolution(SchemaEvolution mode) {
    options.set(DeltaSinkOptions.SCHEMA_EVOLUTION, mode);
    return this;
  }

  /** Sets one option of {@link DeltaSinkOptions} or {@link UnityCatalogOptions}. */
  public <T> DeltaSinkBuilder option(ConfigOption<T> option, T value) {
    options.set(option, value);
    return this;
  }

  /** Adds every option that {@code config} sets, over those set before. */
  public DeltaSinkBuilder options(ReadableConfig config) {
    options.addAll(Configuration.fromMap(config.toMap()));
    return this;
  }

  /**
   * Gives the sink's internal aggregator the uid {@code <prefix>-aggregator}, so a savepoint maps
   * back onto it after the job changes. Set the same kind of stable uid on the sink itself with
   * {@code sinkTo(sink).uid(...)}: Flink requires it once a sink's inner operators have uids.
   */
  public DeltaSinkBuilder uidPrefix(String prefix) {
    this.uidPrefix = prefix;
    return this;
  }

  /**
   * Checks the configuration, opens the table (creating it when it is missing and {@link
   * DeltaSinkOptions#CREATE_IF_MISSING} is on), checks that the location is writable, and evolves
   * the table's schema for the rows as {@link DeltaSinkOptions#SCHEMA_EVOLUTION} allows.
   *
   * @throws IllegalArgumentException naming every missing or invalid setting, every table feature
   *     the sink cannot honour, or every way in which the rows differ from the table
   * @throws IllegalStateException when the table is missing or its location is not writable
   */
  public DeltaSink build() {
    List<String> problems = new ArrayList<>();
    TableTarget target =
        TableTarget.of("DeltaSink", tablePath, tableName, unityCatalog, options, problems);
    KeyColumns key = checkRows(target, problems);
    checkCheckpointInterval(problems);
    DeltaSinkConfig.Compaction compaction = compaction(problems);
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException("Cannot build DeltaSink: " + String.join("; ", problems));
    }
    // Made whether or not the table is created: types Delta cannot hold are refused here.
    TableDefinition definition = definition(key);
    TableRequest request =
        TableRequest.of(target.reference(), DeltaSinkConfig.hadoopConf(hadoopOptions));
    if (options.get(DeltaSinkOptions.CREATE_IF_MISSING)) {
      request = request.creatingIfMissing(definition);
    }
    PreparedTable table = prepare(request, key);
    return new DeltaSink(
        new DeltaSinkConfig(
            table.locator(),
            hadoopOptions,
            table.layout(),
            FileWriteOptions.from(options),
            options.get(DeltaSinkOptions.APP_ID),
            options.get(DeltaSinkOptions.COMMIT_MAX_RETRIES),
            options.get(DeltaSinkOptions.DISTRIBUTION),
            options.getOptional(DeltaSinkOptions.DELTA_CHECKPOINT_INTERVAL).orElse(null),
            table.key(),
            compaction,
            options.get(DeltaSinkOptions.UPSERT_KEY_INDEX),
            UUID.randomUUID().toString()),
        uidPrefix);
  }

  /** The table as the sink found and prepared it: where it is, its file layout, its key. */
  private record PreparedTable(TableLocator locator, FileLayout layout, KeyColumns key) {}

  /** Checks the row type, the key and the partition columns; returns the key, or null. */
  private KeyColumns checkRows(TableTarget target, List<String> problems) {
    if (rowType == null) {
      problems.add("set rowType(...) to the type of the rows the sink receives");
      return null;
    }
    KeyColumns key = null;
    if (primaryKey != null) {
      try {
        key = KeyColumns.of(target.name(), rowType, primaryKey);
      } catch (IllegalArgumentException e) {
        problems.add(e.getMessage());
      }
    }
    for (String column : partitionColumns) {
      if (rowType.getFieldNames().stream().noneMatch(n -> n.equalsIgnoreCase(column))) {
        problems.add("partition column '" + column + "' is not a column of the rows " + rowType);
      }
    }
    return key;
  }

  private void checkCheckpointInterval(List<String> problems) {
    options
        .getOptional(DeltaSinkOptions.DELTA_CHECKPOINT_INTERVAL)
        .filter(interval -> interval < 0)
        .ifPresent(
            interval ->
                problems.add(
                    String.format(
                        "'%s' is %d; set a positive number of versions, or 0 for no Delta"
                            + " checkpoints",
                        DeltaSinkOptions.DELTA_CHECKPOINT_INTERVAL.key(), interval)));
  }

  /** In-job compaction as the options set it, or null when it is off. */
  private DeltaSinkConfig.Compaction compaction(List<String> problems) {
    if (!options.get(DeltaSinkOptions.COMPACTION_ENABLED)) {
      return null;
    }
    try {
      return new DeltaSinkConfig.Compaction(
          CompactionOptions.from(options), CompactionTrigger.from(options));
    } catch (IllegalArgumentException e) {
      problems.add(e.getMessage());
      return null;
    }
  }

  /**
   * The table the sink creates when it is missing: the rows' schema (types Delta cannot hold are
   * refused here, before storage is touched), with column mapping so that it can evolve later, and
   * deletion vectors and the recorded key for an upsert sink.
   */
  private TableDefinition definition(KeyColumns key) {
    Map<String, String> properties = new LinkedHashMap<>(tableProperties);
    properties.putIfAbsent(COLUMN_MAPPING_MODE, "name");
    if (key != null) {
      properties.putIfAbsent(UpsertTables.DELETION_VECTORS, "true");
      properties.putIfAbsent(UpsertTables.PRIMARY_KEY, UpsertTables.keyProperty(key.names()));
    }
    return new TableDefinition(DeltaTypes.toDeltaSchema(rowType), partitionColumns, properties);
  }

  /**
   * Opens the table, refuses what the sink cannot honour before anything changes, evolves its
   * schema for the rows, and resolves the layout of the files and the key.
   */
  private PreparedTable prepare(TableRequest request, KeyColumns key) {
    try (DeltaTable table = DeltaTable.open(request)) {
      table.checkWritable();
      TableFeatureChecks.check(table.name(), table.snapshot(), rowType);
      String mismatch =
          UpsertTables.keyMismatch(
              table.name(),
              UpsertTables.recordedKey(table.snapshot().getTableProperties()),
              key == null ? List.of() : key.names());
      if (mismatch != null) {
        throw new IllegalArgumentException(mismatch);
      }
      if (key != null) {
        // Tables whose features forbid upserts.
        table.metadata().checkUpserts();
      }
      // The table takes its new shape in versions of its own before any file of that shape is
      // written: writers need the physical names and field ids the log gives new columns, and a
      // version that only adds nullable columns or widens types changes no row a reader sees.
      table
          .metadata()
          .evolveFor(
              rowType,
              partitionColumns,
              options.get(DeltaSinkOptions.SCHEMA_EVOLUTION),
              options.get(DeltaSinkOptions.SCHEMA_EVOLUTION_ENABLE_COLUMN_MAPPING));
      FileLayout layout = table.layoutFor(rowType, partitionColumns);
      if (key != null) {
        // Keys of the stream's rows are encoded as the table stores them; a key that is also a
        // partition column refuses empty values, which Delta would store as a null key.
        key = key.forTable(table.snapshot().getSchema());
        layout = layout.withKey(key.names());
        table.metadata().enableUpserts();
      }
      return new PreparedTable(table.locator(), layout, key);
    }
  }
}
