/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.internal;

import io.github.flinkdelta.core.catalog.TableLocator;
import io.github.flinkdelta.core.maintenance.CompactionOptions;
import io.github.flinkdelta.core.maintenance.CompactionTrigger;
import io.github.flinkdelta.core.storage.HadoopConfigurations;
import io.github.flinkdelta.core.upsert.KeyColumns;
import io.github.flinkdelta.core.write.FileLayout;
import io.github.flinkdelta.core.write.FileWriteOptions;
import io.github.flinkdelta.sink.DeltaSinkOptions;
import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.hadoop.conf.Configuration;

/**
 * The immutable, resolved configuration a {@code DeltaSink} ships to its operators.
 *
 * @param table the table: its name, location and where its snapshots come from
 * @param hadoopOptions storage options handed to Hadoop's file systems
 * @param layout how rows are laid out in data files, resolved against the table at build time; null
 *     for a table of the dynamic sink, whose files come in the layouts of the row types its records
 *     carried, each resolved against the table when the writer first met it
 * @param writeOptions how data files are written and rolled
 * @param appId the configured transaction app id, or null for one made at first start
 * @param maxCommitRetries retries of a commit after retryable failures before the task fails
 * @param distribution how rows reach the writers
 * @param deltaCheckpointInterval versions between Delta checkpoints; null follows the table's
 *     {@code delta.checkpointInterval}, 0 writes none
 * @param primaryKey the table's primary key, with which the sink takes upserts and deletes; null
 *     for a sink that appends
 * @param compaction how the sink compacts the table while it streams; null for not at all
 * @param keyIndex where the writers of a sink with a primary key keep their key index
 * @param defaultAppId the app id a sink without a configured one takes when it starts without
 *     state, made once when the sink is built so that every operator of the sink knows it
 */
@Internal
public record DeltaSinkConfig(
    TableLocator table,
    Map<String, String> hadoopOptions,
    FileLayout layout,
    FileWriteOptions writeOptions,
    String appId,
    int maxCommitRetries,
    DeltaSinkOptions.Distribution distribution,
    Integer deltaCheckpointInterval,
    KeyColumns primaryKey,
    Compaction compaction,
    DeltaSinkOptions.KeyIndex keyIndex,
    String defaultAppId)
    implements Serializable {

  /**
   * Distinct storage options seen last: a job has a few; tables rarely have options of their own.
   */
  private static final int MAX_HADOOP_CONFS = 64;

  private static final Map<Map<String, String>, Configuration> HADOOP_CONFS =
      new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Map<String, String>, Configuration> eldest) {
          return size() > MAX_HADOOP_CONFS;
        }
      };

  /** In-job compaction: what a run rewrites, and when runs start. */
  public record Compaction(CompactionOptions options, CompactionTrigger trigger)
      implements Serializable {}

  public DeltaSinkConfig {
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(writeOptions, "writeOptions");
    Objects.requireNonNull(keyIndex, "keyIndex");
    Objects.requireNonNull(defaultAppId, "defaultAppId");
    hadoopOptions = Map.copyOf(hadoopOptions);
  }

  /** Whether the sink takes upserts and deletes by a primary key. */
  public boolean upserts() {
    return primaryKey != null;
  }

  /**
   * The app id an operator of the sink works under: the configured one, else the one its state
   * restored, else the default made at build time; null when state was restored without one (state
   * of an earlier connector version whose operator did not keep it).
   *
   * @param restored the app id the operator's state restored, or null
   * @param restoredState whether the operator's state was restored
   */
  public String appIdFor(String restored, boolean restoredState) {
    if (appId != null) {
      return appId;
    }
    if (restored != null) {
      return restored;
    }
    return restoredState ? null : defaultAppId;
  }

  /** The table's root location, under which data files are written. */
  public String tablePath() {
    return table.path();
  }

  /** The table as messages name it. */
  public String tableName() {
    return table.name();
  }

  /**
   * The Hadoop configuration carrying the storage options, shared and never changed (see below).
   */
  public Configuration hadoopConf() {
    return hadoopConf(hadoopOptions);
  }

  /**
   * The Hadoop configuration through which the table's files are written: the storage options plus
   * any credentials the catalog vends for the table.
   */
  public Configuration storageConf() {
    return table.storageConf(hadoopConf());
  }

  /**
   * The Hadoop configuration of {@code options}, one instance for equal options in this class
   * loader: each holds its own copy of Hadoop's defaults (a thousand entries in two maps), and a
   * sink's operators open each table several times, so a dynamic sink's thousand tables held
   * thousands of copies. Callers only read it; one that sets options copies it first.
   */
  public static Configuration hadoopConf(Map<String, String> options) {
    Map<String, String> key = Map.copyOf(options);
    synchronized (HADOOP_CONFS) {
      Configuration shared = HADOOP_CONFS.get(key);
      if (shared != null) {
        return shared;
      }
    }
    Configuration made = HadoopConfigurations.of(key);
    synchronized (HADOOP_CONFS) {
      Configuration raced = HADOOP_CONFS.putIfAbsent(key, made);
      return raced != null ? raced : made;
    }
  }

  @Override
  public String toString() {
    // Storage options may hold credentials: name the keys, never the values.
    return "DeltaSinkConfig[table="
        + table.name()
        + ", hadoopOptions="
        + hadoopOptions.keySet()
        + ", writeOptions="
        + writeOptions
        + "]";
  }
}
