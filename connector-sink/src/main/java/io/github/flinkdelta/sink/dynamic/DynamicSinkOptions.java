/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.dynamic;

import java.time.Duration;
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
                  + " and keeps the table's rows; APPLY truncates or drops the table once the"
                  + " rows before the event are committed, after the checkpoint's version, and"
                  + " writes the rows after it once that is done: a truncated table's with the"
                  + " next checkpoint, a dropped table's into the table created anew.");

  public static final ConfigOption<Integer> COMMIT_PARALLELISM =
      ConfigOptions.key("sink.dynamic.commit-parallelism")
          .intType()
          .defaultValue(4)
          .withDescription(
              "Tables committed at the same time when a checkpoint completes. Each table with"
                  + " rows in the checkpoint gets one version of its own.");

  public static final ConfigOption<Duration> COMMIT_INTERVAL =
      ConfigOptions.key("sink.dynamic.commit-interval")
          .durationType()
          .defaultValue(Duration.ZERO)
          .withDescription(
              "The least time between two versions of one table. At 0 (the default) every table"
                  + " with rows in a checkpoint gets a version when the checkpoint completes."
                  + " Longer, a table whose last version is younger keeps the files of the"
                  + " checkpoints in between in the sink's state, exactly once as any"
                  + " checkpoint's, and commits them with those of the first checkpoint after the"
                  + " interval, in one version: fewer versions, Delta checkpoints and catalog"
                  + " commits per table, and fewer versions for every reader to replay, for rows"
                  + " visible up to the interval later. A table that is truncated or dropped, and"
                  + " every table when the input ends, commits at once. May be set per table.");

  public static final ConfigOption<Integer> MAX_CACHED_TABLES =
      ConfigOptions.key("sink.dynamic.max-cached-tables")
          .intType()
          .defaultValue(1000)
          .withDescription(
              "Tables a writer subtask keeps resolved, and the committer keeps open, at most; the"
                  + " table used least recently is closed first (a writer first completes its"
                  + " open files). Set it at or above the number of tables written at once.");

  public static final ConfigOption<Duration> FOLLOW_INTERVAL =
      ConfigOptions.key("sink.dynamic.follow-interval")
          .durationType()
          .defaultValue(Duration.ofSeconds(10))
          .withDescription(
              "How often, at most, each upsert writer subtask reads a keyed table's new versions"
                  + " to take other writers' changes (Spark's DELETE, MERGE or OPTIMIZE, say)"
                  + " into its key index. Each read loads the table's latest snapshot, so with"
                  + " many tables it costs more than the writing; commits stay exact however"
                  + " long the interval, as each commit settles the keys it touches against"
                  + " other writers' versions since the index's.");

  public static final ConfigOption<RefusedRecordPolicy> REFUSED_RECORDS =
      ConfigOptions.key("sink.dynamic.refused-records")
          .enumType(RefusedRecordPolicy.class)
          .defaultValue(RefusedRecordPolicy.FAIL)
          .withDescription(
              "What the sink does with a record its table refuses: a name that is no table name,"
                  + " a schema the table cannot evolve to, a catalog that denies the table (HTTP"
                  + " 403). FAIL stops the job naming the table and the reason; DEAD_LETTER writes"
                  + " the record, with its table and the reason, into the table that '"
                  + "sink.dynamic.dead-letter-table' names, and goes on with the other tables.");

  public static final ConfigOption<String> DEAD_LETTER_TABLE =
      ConfigOptions.key("sink.dynamic.dead-letter-table")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "The table refused records go to when 'sink.dynamic.refused-records' is"
                  + " DEAD_LETTER, named as records name their tables. The writers find it, or"
                  + " create it as 'sink.create-if-missing' allows, when they start; it is"
                  + " committed exactly once with each checkpoint like any other table.");

  private DynamicSinkOptions() {}
}
