/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.source;

import io.github.flinkdelta.core.catalog.TableLocator;
import io.github.flinkdelta.core.read.ReadColumns;
import io.github.flinkdelta.core.read.ReadFilter;
import io.github.flinkdelta.core.read.WatermarkColumn;
import io.github.flinkdelta.core.storage.HadoopConfigurations;
import io.github.flinkdelta.source.DeltaSourceOptions.ChangeCommits;
import io.github.flinkdelta.source.DeltaSourceOptions.StartupMode;
import java.io.Serializable;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.hadoop.conf.Configuration;

/**
 * The immutable, resolved configuration a {@link DeltaSource} ships to its enumerator and readers.
 *
 * @param table the table: its name, location and where its versions come from
 * @param hadoopOptions storage options handed to Hadoop's file systems
 * @param columns the columns read, resolved against the table's schema at build time
 * @param bounded whether the read ends after one version
 * @param startup where the read starts; for a bounded read, SNAPSHOT_THEN_INCREMENTAL (the latest
 *     version), VERSION or TIMESTAMP (time travel)
 * @param startVersion the version of {@code startup} VERSION
 * @param startTimestamp the timestamp of {@code startup} TIMESTAMP, in epoch milliseconds
 * @param pollInterval how often a continuous read looks for new versions
 * @param maxFilesPerPoll about how many files a continuous read plans per poll
 * @param maxPlanningFailures how many polls of a continuous read may fail in a row before the job
 *     fails, or -1 for no limit
 * @param changeCommits what a continuous read does with versions that delete or update rows
 * @param filter the rows to read: files that cannot hold one are skipped, rows that fail it are
 *     dropped; null for every row
 * @param limit the most rows each reader of a bounded read emits, or -1 for no limit
 * @param watermark the column whose per-file least value orders files and gives watermarks, or null
 *     for none
 */
@Internal
public record DeltaSourceConfig(
    TableLocator table,
    Map<String, String> hadoopOptions,
    ReadColumns columns,
    boolean bounded,
    StartupMode startup,
    long startVersion,
    long startTimestamp,
    Duration pollInterval,
    int maxFilesPerPoll,
    int maxPlanningFailures,
    ChangeCommits changeCommits,
    ReadFilter filter,
    long limit,
    WatermarkColumn watermark)
    implements Serializable {

  public DeltaSourceConfig {
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(columns, "columns");
    Objects.requireNonNull(startup, "startup");
    Objects.requireNonNull(pollInterval, "pollInterval");
    Objects.requireNonNull(changeCommits, "changeCommits");
    hadoopOptions = Map.copyOf(hadoopOptions);
  }

  /** The table as messages name it. */
  public String tableName() {
    return table.name();
  }

  /**
   * The Hadoop configuration through which the table's files are read: the storage options plus any
   * read-only credentials the catalog vends for the table.
   */
  public Configuration readConf() {
    return table.readConf(HadoopConfigurations.of(hadoopOptions));
  }

  @Override
  public String toString() {
    // Storage options may hold credentials: name the keys, never the values.
    return "DeltaSourceConfig[table="
        + table.name()
        + ", columns="
        + columns.names()
        + ", hadoopOptions="
        + hadoopOptions.keySet()
        + ", bounded="
        + bounded
        + ", startup="
        + startup
        + ", filter="
        + filter
        + ", watermark="
        + (watermark == null ? null : watermark.name())
        + "]";
  }
}
