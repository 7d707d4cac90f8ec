/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.dynamic;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

/**
 * The options only a {@link DynamicDeltaSink} has. Every option of {@link
 * io.github.flinkdelta.sink.DeltaSinkOptions} applies to each of its tables too, and may be set for
 * one table alone ({@link DynamicDeltaSinkBuilder#tableOption}).
 */
@PublicEvolving
public final class DynamicSinkOptions {

  public static final ConfigOption<TableEventPolicy> TABLE_EVENTS =
      ConfigOptions.key("sink.dynamic.table-events")
          .enumType(TableEventPolicy.class)
          .defaultValue(TableEventPolicy.FAIL)
          .withDescription(
              "What the sink does when the source truncates or drops a table: FAIL stops the job"
                  + " naming the table, before anything of the event is applied; IGNORE logs it"
                  + " and keeps the table's rows.");

  public static final ConfigOption<Integer> COMMIT_PARALLELISM =
      ConfigOptions.key("sink.dynamic.commit-parallelism")
          .intType()
          .defaultValue(4)
          .withDescription(
              "Tables committed at the same time when a checkpoint completes. Each table with"
                  + " rows in the checkpoint gets one version of its own.");

  public static final ConfigOption<Integer> MAX_CACHED_TABLES =
      ConfigOptions.key("sink.dynamic.max-cached-tables")
          .intType()
          .defaultValue(1000)
          .withDescription(
              "Tables a writer subtask keeps resolved, and the committer keeps open, at most; the"
                  + " table used least recently is closed first (a writer first completes its"
                  + " open files). Set it at or above the number of tables written at once.");

  private DynamicSinkOptions() {}
}
