/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.dynamic;

import io.github.flinkdelta.core.catalog.TableLocator;
import io.github.flinkdelta.core.maintenance.CompactionOptions;
import io.github.flinkdelta.core.maintenance.CompactionTrigger;
import io.github.flinkdelta.core.upsert.KeyColumns;
import io.github.flinkdelta.core.write.FileWriteOptions;
import io.github.flinkdelta.sink.DeltaSinkOptions;
import io.github.flinkdelta.sink.internal.DeltaSinkConfig;
import java.io.Serializable;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;

/**
 * The immutable configuration a {@link DynamicDeltaSink} ships to its operators.
 *
 * @param names how records' table names become tables
 * @param options the sink's options, for every table
 * @param tableOptions options of single tables, by the name records give them, over {@code options}
 * @param hadoopOptions storage options handed to Hadoop's file systems
 * @param appId the configured transaction app id, or null for one made at first start
 * @param defaultAppId the app id a sink without a configured one takes when it starts without
 *     state, made once when the sink is built
 */
@Internal
record DynamicSinkConfig(
    DynamicTableNames names,
    Map<String, String> options,
    Map<String, Map<String, String>> tableOptions,
    Map<String, String> hadoopOptions,
    String appId,
    String defaultAppId)
    implements Serializable {

  DynamicSinkConfig {
    Objects.requireNonNull(names, "names");
    Objects.requireNonNull(defaultAppId, "defaultAppId");
    options = Map.copyOf(options);
    tableOptions = Map.copyOf(tableOptions);
    hadoopOptions = Map.copyOf(hadoopOptions);
  }

  /** The sink's options. */
  Configuration sinkOptions() {
    return Configuration.fromMap(options);
  }

  /** The options of table {@code name}: the sink's, with the table's own over them. */
  Configuration optionsOf(String name) {
    Configuration merged = sinkOptions();
    Map<String, String> own = tableOptions.get(name);
    if (own != null) {
      merged.addAll(Configuration.fromMap(own));
    }
    return merged;
  }

  /** The value of {@code option} that table {@code name}'s own options set, if they set it. */
  <T> Optional<T> ownOption(String name, ConfigOption<T> option) {
    Map<String, String> own = tableOptions.get(name);
    return own == null || !own.containsKey(option.key())
        ? Optional.empty()
        : Optional.of(Configuration.fromMap(own).get(option));
  }

  /**
   * The configuration of one table as the single-table sink's committer takes it: the table's
   * options, no fixed file layout (see {@link DeltaSinkConfig#layout()}).
   *
   * @param key the table's primary key, by which commits settle deletes; null for a table that
   *     appends
   */
  DeltaSinkConfig tableConfig(String name, TableLocator locator, KeyColumns key) {
    Configuration table = optionsOf(name);
    return new DeltaSinkConfig(
        locator,
        hadoopOptions,
        null,
        FileWriteOptions.from(table),
        appId,
        table.get(DeltaSinkOptions.COMMIT_MAX_RETRIES),
        table.get(DeltaSinkOptions.DISTRIBUTION),
        table.getOptional(DeltaSinkOptions.DELTA_CHECKPOINT_INTERVAL).orElse(null),
        key,
        // A table with a key is compacted by its upsert writers (upsertTableConfig).
        key == null ? compactionOf(table) : null,
        table.get(DeltaSinkOptions.UPSERT_KEY_INDEX),
        defaultAppId);
  }

  /**
   * The configuration of one table with a primary key as the single-table sink's upsert writer
   * takes it: files laid out for one row shape, keys encoded as the table stores them, and the
   * in-job compaction the writers run on their own files when the table's options ask for it.
   */
  DeltaSinkConfig upsertTableConfig(String name, ResolvedShape shape) {
    DeltaSinkConfig table = tableConfig(name, shape.locator(), shape.key());
    return new DeltaSinkConfig(
        table.table(),
        table.hadoopOptions(),
        shape.layout(),
        table.writeOptions(),
        table.appId(),
        table.maxCommitRetries(),
        table.distribution(),
        table.deltaCheckpointInterval(),
        shape.key(),
        compactionOf(optionsOf(name)),
        table.keyIndex(),
        table.defaultAppId());
  }

  private static DeltaSinkConfig.Compaction compactionOf(Configuration table) {
    return table.get(DeltaSinkOptions.COMPACTION_ENABLED)
        ? new DeltaSinkConfig.Compaction(
            CompactionOptions.from(table), CompactionTrigger.from(table))
        : null;
  }

  /** A fresh Hadoop configuration carrying the storage options. */
  org.apache.hadoop.conf.Configuration hadoopConf() {
    return DeltaSinkConfig.hadoopConf(hadoopOptions);
  }

  @Override
  public String toString() {
    // Storage options may hold credentials: name the keys, never the values.
    return "DynamicSinkConfig[names="
        + names
        + ", options="
        + options.keySet()
        + ", hadoopOptions="
        + hadoopOptions.keySet()
        + "]";
  }
}
