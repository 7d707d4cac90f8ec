/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.config;

import java.time.Duration;
import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.MemorySize;

/**
 * The sink options that the table library itself reads: how files are written, how compaction
 * plans, how a schema evolves and whether a missing table is created. Users set them through {@code
 * io.github.flinkdelta.sink.DeltaSinkOptions}, which holds these same options beside the sink's
 * own.
 */
@Internal
public final class TableWriteOptions {

  public static final ConfigOption<Boolean> CREATE_IF_MISSING =
      ConfigOptions.key("sink.create-if-missing")
          .booleanType()
          .defaultValue(true)
          .withDescription(
              "Create the table from the sink's row type and partition columns when it does not"
                  + " exist.");

  public static final ConfigOption<MemorySize> TARGET_FILE_SIZE =
      ConfigOptions.key("sink.rolling.target-file-size")
          .memoryType()
          .defaultValue(MemorySize.ofMebiBytes(128))
          .withDescription(
              "A data file is closed once the bytes written to it (flushed and buffered) reach"
                  + " this size. Files are also closed at every checkpoint.");

  public static final ConfigOption<Long> MAX_ROWS_PER_FILE =
      ConfigOptions.key("sink.rolling.max-rows-per-file")
          .longType()
          .defaultValue(Long.MAX_VALUE)
          .withDescription("A data file is closed once it holds this many rows.");

  public static final ConfigOption<MemorySize> BUFFER_BUDGET =
      ConfigOptions.key("sink.writer.buffer-budget")
          .memoryType()
          .defaultValue(MemorySize.ofMebiBytes(256))
          .withDescription(
              "Memory that one writer subtask may hold for its partitions: the encoded,"
                  + " unflushed bytes of open data files plus about 64 KB per open file, and the"
                  + " rows held for partitions too small yet for an open file. Past it, the"
                  + " partitions holding the most are completed as files (never dropped), so many"
                  + " partitions cost smaller files rather than memory.");

  public static final ConfigOption<Compression> COMPRESSION =
      ConfigOptions.key("sink.parquet.compression")
          .enumType(Compression.class)
          .defaultValue(Compression.SNAPPY)
          .withDescription("Compression codec of the Parquet data files.");

  public static final ConfigOption<MemorySize> ROW_GROUP_SIZE =
      ConfigOptions.key("sink.parquet.row-group-size")
          .memoryType()
          .defaultValue(MemorySize.ofMebiBytes(128))
          .withDescription("Parquet row group size.");

  public static final ConfigOption<MemorySize> PAGE_SIZE =
      ConfigOptions.key("sink.parquet.page-size")
          .memoryType()
          .defaultValue(MemorySize.ofMebiBytes(1))
          .withDescription("Parquet page size.");

  public static final ConfigOption<SchemaEvolution> SCHEMA_EVOLUTION =
      ConfigOptions.key("sink.schema-evolution")
          .enumType(SchemaEvolution.class)
          .defaultValue(SchemaEvolution.ADD_COLUMNS)
          .withDescription(
              "How the table follows the rows' columns, which are matched by name. 'add-columns'"
                  + " adds the rows' columns the table lacks as nullable columns (top level and"
                  + " inside structs, arrays of structs and map values). 'widen' also widens"
                  + " types (TINYINT to SMALLINT to INT to BIGINT, FLOAT to DOUBLE, integers to"
                  + " DOUBLE or a DECIMAL wide enough, DECIMAL to more precision and scale, DATE"
                  + " to TIMESTAMP_NTZ) through Delta's typeWidening feature, and makes NOT NULL"
                  + " columns nullable. 'none' fails on any difference. The table is changed"
                  + " when the sink is built, before any file of the new shape is written.");

  public static final ConfigOption<Boolean> SCHEMA_EVOLUTION_ENABLE_COLUMN_MAPPING =
      ConfigOptions.key("sink.schema-evolution.enable-column-mapping")
          .booleanType()
          .defaultValue(true)
          .withDescription(
              "Delta changes a schema only on tables with column mapping. When the table has"
                  + " none and its schema must change, upgrade it to"
                  + " 'delta.columnMapping.mode' = 'name' in a commit of its own (readers need"
                  + " Delta reader version 2 after that). When false, such a change fails"
                  + " instead.");

  public static final ConfigOption<Integer> COMPACTION_TRIGGER_COMMITS =
      ConfigOptions.key("sink.compaction.trigger.commits")
          .intType()
          .defaultValue(10)
          .withDescription(
              "A compaction starts after this many commits since the last one started (unless"
                  + " one is still running).");

  public static final ConfigOption<Duration> COMPACTION_TRIGGER_INTERVAL =
      ConfigOptions.key("sink.compaction.trigger.interval")
          .durationType()
          .noDefaultValue()
          .withDescription(
              "A compaction also starts at the first commit this long after the last one"
                  + " started, however few commits came in between.");

  public static final ConfigOption<MemorySize> COMPACTION_TARGET_FILE_SIZE =
      ConfigOptions.key("sink.compaction.target-file-size")
          .memoryType()
          .defaultValue(MemorySize.ofMebiBytes(128))
          .withDescription(
              "Compaction writes files of about this size; files below three quarters of it"
                  + " count as small.");

  public static final ConfigOption<Integer> COMPACTION_MIN_INPUT_FILES =
      ConfigOptions.key("sink.compaction.min-input-files")
          .intType()
          .defaultValue(5)
          .withDescription("The fewest small files of one partition that a compaction merges.");

  public static final ConfigOption<MemorySize> COMPACTION_MAX_BYTES_PER_RUN =
      ConfigOptions.key("sink.compaction.max-bytes-per-run")
          .memoryType()
          .defaultValue(MemorySize.ofMebiBytes(1024))
          .withDescription(
              "The most bytes of files one compaction rewrites; the rest waits for the next.");

  public static final ConfigOption<Double> COMPACTION_DELETED_ROWS_RATIO =
      ConfigOptions.key("sink.compaction.deleted-rows-ratio")
          .doubleType()
          .defaultValue(0.2)
          .withDescription(
              "A file whose deletion vector marks at least this fraction of its rows is"
                  + " rewritten even on its own.");

  private TableWriteOptions() {}
}
