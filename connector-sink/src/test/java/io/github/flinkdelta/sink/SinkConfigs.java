/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink;

import io.github.flinkdelta.core.catalog.PathTableLocator;
import io.github.flinkdelta.core.catalog.TableLocator;
import io.github.flinkdelta.core.maintenance.CompactionOptions;
import io.github.flinkdelta.core.maintenance.CompactionTrigger;
import io.github.flinkdelta.core.table.DeltaTable;
import io.github.flinkdelta.core.testing.TestTables;
import io.github.flinkdelta.core.upsert.KeyColumns;
import io.github.flinkdelta.core.write.FileLayout;
import io.github.flinkdelta.core.write.FileWriteOptions;
import io.github.flinkdelta.sink.internal.DeltaSinkConfig;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.types.logical.RowType;

/** Sink configurations of path tables for the operators' unit tests. */
public final class SinkConfigs {

  private SinkConfigs() {}

  /**
   * The configuration a sink of {@code rows} into the path table at {@code path} (created when
   * missing) carries, with {@code options} over the defaults.
   */
  public static DeltaSinkConfig of(
      String path, RowType rows, List<String> partitions, Configuration options) {
    return of(new PathTableLocator(path), rows, partitions, options);
  }

  /** As {@link #of(String, RowType, List, Configuration)}, for a table {@code locator} finds. */
  public static DeltaSinkConfig of(
      TableLocator locator, RowType rows, List<String> partitions, Configuration options) {
    return of(locator, rows, partitions, null, options);
  }

  /**
   * The configuration of an upsert sink of {@code rows} by primary key {@code key} into the path
   * table at {@code path}, created with deletion vectors when missing.
   */
  public static DeltaSinkConfig upsert(
      String path, RowType rows, List<String> key, Configuration options) {
    return of(new PathTableLocator(path), rows, List.of(), KeyColumns.of(path, rows, key), options);
  }

  /**
   * The configuration of an appending sink into the path table at {@code path} that compacts it as
   * the {@code sink.compaction.*} options of {@code options} say.
   */
  public static DeltaSinkConfig compacting(String path, RowType rows, Configuration options) {
    return compacting(of(new PathTableLocator(path), rows, List.of(), null, options), options);
  }

  /**
   * The configuration of an upsert sink as {@link #upsert} gives it that compacts its own files as
   * the {@code sink.compaction.*} options of {@code options} say.
   */
  public static DeltaSinkConfig upsertCompacting(
      String path, RowType rows, List<String> key, Configuration options) {
    return compacting(upsert(path, rows, key, options), options);
  }

  private static DeltaSinkConfig compacting(DeltaSinkConfig config, Configuration options) {
    return new DeltaSinkConfig(
        config.table(),
        config.hadoopOptions(),
        config.layout(),
        config.writeOptions(),
        config.appId(),
        config.maxCommitRetries(),
        config.distribution(),
        config.deltaCheckpointInterval(),
        config.primaryKey(),
        new DeltaSinkConfig.Compaction(
            CompactionOptions.from(options), CompactionTrigger.from(options)),
        config.keyIndex(),
        config.defaultAppId());
  }

  private static DeltaSinkConfig of(
      TableLocator locator,
      RowType rows,
      List<String> partitions,
      KeyColumns key,
      Configuration options) {
    FileLayout layout;
    try (DeltaTable table = TestTables.create(locator.path(), rows, partitions, Map.of())) {
      if (key != null) {
        table.metadata().enableUpserts();
      }
      layout = table.layoutFor(rows, partitions);
    }
    return new DeltaSinkConfig(
        locator,
        Map.of(),
        layout,
        FileWriteOptions.from(options),
        options.get(DeltaSinkOptions.APP_ID),
        options.get(DeltaSinkOptions.COMMIT_MAX_RETRIES),
        options.get(DeltaSinkOptions.DISTRIBUTION),
        options.getOptional(DeltaSinkOptions.DELTA_CHECKPOINT_INTERVAL).orElse(null),
        key,
        null,
        options.get(DeltaSinkOptions.UPSERT_KEY_INDEX),
        UUID.randomUUID().toString());
  }
}
