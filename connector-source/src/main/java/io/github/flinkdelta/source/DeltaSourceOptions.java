/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.source;

import java.time.Duration;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

/**
 * The options of the Delta source. The DataStream builder ({@code
 * DeltaSource.builder().option(...)}) and the SQL connector ({@code WITH ('scan.…' = …)}) both
 * resolve them through one reader.
 */
@PublicEvolving
public final class DeltaSourceOptions {

  /** Whether a read ends. */
  public enum ScanMode {
    /** Read one version of the table, then end. */
    BOUNDED,
    /** Read, then follow the table's new versions until the job is stopped. */
    CONTINUOUS
  }

  /** Where a continuous read starts. */
  public enum StartupMode {
    /** The rows of the latest version, then every version after it. */
    SNAPSHOT_THEN_INCREMENTAL,
    /** Only the versions committed after the source starts. */
    LATEST,
    /** The changes of the versions from {@code scan.startup.version} on, without a snapshot. */
    VERSION,
    /** The changes of the versions committed at or after {@code scan.startup.timestamp}. */
    TIMESTAMP
  }

  /** What a continuous read does with a version that deletes or updates rows. */
  public enum ChangeCommits {
    /** Stop the job, naming the version and the options that read past it. */
    FAIL,
    /** Skip the version: its deletes and updates, and the rows it adds, are not read. */
    SKIP,
    /**
     * Read every version as changes: each row it deletes as a {@code -D} row, each row it adds as
     * {@code +I}, deletes first, one version after another, from one reader.
     */
    CHANGELOG
  }

  public static final ConfigOption<ScanMode> SCAN_MODE =
      ConfigOptions.key("scan.mode")
          .enumType(ScanMode.class)
          .noDefaultValue()
          .withDescription(
              "BOUNDED reads one version of the table and ends; CONTINUOUS goes on reading each"
                  + " new version. Default: BOUNDED in batch execution, CONTINUOUS in streaming.");

  public static final ConfigOption<StartupMode> STARTUP_MODE =
      ConfigOptions.key("scan.startup.mode")
          .enumType(StartupMode.class)
          .defaultValue(StartupMode.SNAPSHOT_THEN_INCREMENTAL)
          .withDescription(
              "Where a continuous read starts: SNAPSHOT_THEN_INCREMENTAL reads the latest version's"
                  + " rows and then each later version; LATEST only versions committed after the"
                  + " start; VERSION the versions from 'scan.startup.version' on; TIMESTAMP those"
                  + " committed at or after 'scan.startup.timestamp'. Once the job has a"
                  + " checkpoint, it goes on from there instead.");

  public static final ConfigOption<Long> STARTUP_VERSION =
      ConfigOptions.key("scan.startup.version")
          .longType()
          .noDefaultValue()
          .withDescription(
              "With scan.startup.mode VERSION, the first version a continuous read reads. In a"
                  + " bounded read, the version to read (time travel).");

  public static final ConfigOption<Long> STARTUP_TIMESTAMP =
      ConfigOptions.key("scan.startup.timestamp")
          .longType()
          .noDefaultValue()
          .withDescription(
              "Milliseconds since the epoch. With scan.startup.mode TIMESTAMP, a continuous read"
                  + " starts at the first version committed at or after it. In a bounded read,"
                  + " the last version committed at or before it is read (time travel).");

  public static final ConfigOption<Duration> POLL_INTERVAL =
      ConfigOptions.key("scan.poll-interval")
          .durationType()
          .defaultValue(Duration.ofSeconds(1))
          .withDescription(
              "How often a continuous read asks for the table's latest version: one call per"
                  + " interval for the whole job, made by the source's enumerator (for a Unity"
                  + " Catalog managed table, to the catalog), never by the readers.");

  public static final ConfigOption<Integer> MAX_FILES_PER_POLL =
      ConfigOptions.key("scan.max-files-per-poll")
          .intType()
          .defaultValue(1000)
          .withDescription(
              "A continuous read plans at most about this many data files per poll, whole"
                  + " versions at a time (a version with more is planned whole), and plans no more"
                  + " while this many wait for a reader, so a reader far behind the table holds"
                  + " the enumerator's state small.");

  public static final ConfigOption<ChangeCommits> CHANGE_COMMITS =
      ConfigOptions.key("scan.change-commits")
          .enumType(ChangeCommits.class)
          .defaultValue(ChangeCommits.FAIL)
          .withDescription(
              "What a continuous read does with a version that deletes or updates rows (it"
                  + " removes data files or changes their deletion vectors, as upserts and"
                  + " deletes do): FAIL stops the job naming the version; SKIP reads past it,"
                  + " leaving out its changes; CHANGELOG emits every version as changes, each"
                  + " row it deletes (by a deletion vector's new rows, or in a removed file) as a"
                  + " DELETE row and each row it adds as an INSERT, a version's deletes before its"
                  + " inserts, so that a keyed sink downstream mirrors the table. A changelog read"
                  + " emits from one reader (subtask 0), which keeps every key's changes in"
                  + " order. A version that only rewrites files (dataChange = false, e.g."
                  + " compaction) is never read as a change.");

  public static final ConfigOption<Integer> MAX_PLANNING_FAILURES =
      ConfigOptions.key("scan.max-planning-failures")
          .intType()
          .defaultValue(3)
          .withDescription(
              "How many polls of a continuous read may fail in a row (the table's log or the"
                  + " catalog cannot be read) before the job fails: a failed poll is tried again"
                  + " at the next interval, and a poll that succeeds resets the count. -1 for no"
                  + " limit, 0 to fail at the first. The catalog's own outages are first waited"
                  + " out within a poll, as the sink waits them out.");

  public static final ConfigOption<String> WATERMARK_COLUMN =
      ConfigOptions.key("scan.watermark-column")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "A TIMESTAMP or TIMESTAMP_NTZ column to take watermarks from. Data files are handed"
                  + " to readers in the order of their least value of the column (by the files'"
                  + " statistics, oldest first, as planned together), and a reader emits the"
                  + " watermark of each file before its rows: just below that least value, so no"
                  + " row of a file is late to it. Rows carry the column's value as their"
                  + " timestamp when the column is read. A reader waiting for files is marked"
                  + " idle. Files written later with older values can still be late. Not with"
                  + " scan.change-commits CHANGELOG, whose order is the table's. In SQL, a"
                  + " column's WATERMARK ... AS SOURCE_WATERMARK() sets it.");

  private DeltaSourceOptions() {}
}
