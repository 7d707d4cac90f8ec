/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink;

import io.github.flinkdelta.core.config.Compression;
import io.github.flinkdelta.core.config.SchemaEvolution;
import io.github.flinkdelta.core.config.TableWriteOptions;
import java.time.Duration;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.MemorySize;

/**
 * The options of the Delta sink. The DataStream builder ({@code DeltaSink.builder().option(...)})
 * and the SQL connector ({@code WITH ('sink.…' = …)}) both resolve them through one reader, so an
 * option means the same everywhere. The values of {@link #COMPRESSION} and {@link
 * #SCHEMA_EVOLUTION} are {@link Compression} and {@link SchemaEvolution}, which the table library
 * reads too; the options it reads are defined there ({@link TableWriteOptions}) and are the same
 * objects here.
 */
@PublicEvolving
public final class DeltaSinkOptions {

  public static final ConfigOption<String> APP_ID =
      ConfigOptions.key("sink.app-id")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "Delta transaction app id under which the sink commits. Default: a random UUID made"
                  + " when the job first starts and kept in Flink state, so a job restored from a"
                  + " savepoint keeps it.");

  public static final ConfigOption<Boolean> CREATE_IF_MISSING = TableWriteOptions.CREATE_IF_MISSING;

  public static final ConfigOption<MemorySize> TARGET_FILE_SIZE =
      TableWriteOptions.TARGET_FILE_SIZE;

  public static final ConfigOption<Long> MAX_ROWS_PER_FILE = TableWriteOptions.MAX_ROWS_PER_FILE;

  public static final ConfigOption<MemorySize> BUFFER_BUDGET = TableWriteOptions.BUFFER_BUDGET;

  public static final ConfigOption<Compression> COMPRESSION = TableWriteOptions.COMPRESSION;

  public static final ConfigOption<MemorySize> ROW_GROUP_SIZE = TableWriteOptions.ROW_GROUP_SIZE;

  public static final ConfigOption<MemorySize> PAGE_SIZE = TableWriteOptions.PAGE_SIZE;

  public static final ConfigOption<Integer> DELTA_CHECKPOINT_INTERVAL =
      ConfigOptions.key("sink.delta-checkpoint.interval")
          .intType()
          .noDefaultValue()
          .withDescription(
              "Write a Delta checkpoint of every version that is a multiple of this number, on a"
                  + " thread of its own so that commits do not wait for it; 0 writes none. By"
                  + " default the table's 'delta.checkpointInterval' (10 unless set). Checkpoints"
                  + " keep snapshot loads fast on long-running streams. Tables with the"
                  + " 'v2Checkpoint' feature get V2-spec checkpoints.");

  public static final ConfigOption<Integer> COMMIT_MAX_RETRIES =
      ConfigOptions.key("sink.commit.max-retries")
          .intType()
          .defaultValue(10)
          .withDescription(
              "Times a commit is retried after a retryable failure (storage or catalog errors)"
                  + " before the committer fails the task; Flink then restarts it and the commit"
                  + " is tried again, so no files are lost.");

  /** How rows reach the writer subtasks. */
  public enum Distribution {
    /** Rows stay on the subtask that produced them. */
    NONE,
    /** Rows are keyed by their partition values, so each partition is written by one subtask. */
    HASH
  }

  public static final ConfigOption<Distribution> DISTRIBUTION =
      ConfigOptions.key("sink.distribution")
          .enumType(Distribution.class)
          .defaultValue(Distribution.NONE)
          .withDescription(
              "NONE keeps rows on the subtask that produced them. HASH keys rows by their"
                  + " partition values before the writers, so each partition has one open file"
                  + " at a time across the job instead of one per subtask; it costs a network"
                  + " shuffle. Unpartitioned tables ignore it, and so does a sink with a primary"
                  + " key, whose rows always go by a hash of the key.");

  /** Where an upsert sink's writers keep their key index. */
  public enum KeyIndex {
    /** On the heap with Flink's HashMap state backend, in the state backend with any other. */
    AUTO("auto"),
    /** Compact maps on the heap, written whole into every checkpoint. */
    HEAP("heap"),
    /** One value per key in the job's keyed state backend (on disk with RocksDB). */
    STATE_BACKEND("state-backend");

    private final String value;

    KeyIndex(String value) {
      this.value = value;
    }

    /**
     * Whether the index lives on the heap, the job's keyed state backend being the HashMap one or
     * not.
     */
    public boolean onHeap(boolean hashMapBackend) {
      return this == HEAP || (this == AUTO && hashMapBackend);
    }

    /** The option's value, as SQL and the configuration spell it. */
    @Override
    public String toString() {
      return value;
    }
  }

  public static final ConfigOption<KeyIndex> UPSERT_KEY_INDEX =
      ConfigOptions.key("sink.upsert.key-index")
          .enumType(KeyIndex.class)
          .defaultValue(KeyIndex.AUTO)
          .withDescription(
              "Where the writers of a sink with a primary key keep the index from each key to its"
                  + " live row. 'heap' keeps compact maps on the heap (about 50 bytes per key plus"
                  + " the key's bytes, no object per key) and writes them whole into every"
                  + " checkpoint, per key group, so that they rescale with the keys; it is the"
                  + " fastest, but the whole index must fit the task managers' heap."
                  + " 'state-backend' keeps one value per key in the job's keyed state backend,"
                  + " which with RocksDB lives on disk and can be checkpointed incrementally, for"
                  + " key spaces larger than the heap. 'auto' chooses 'heap' with the HashMap"
                  + " state backend (not wrapped by the changelog state backend) and"
                  + " 'state-backend' with any other. A restore into the other kind moves the"
                  + " restored entries over.");

  public static final ConfigOption<SchemaEvolution> SCHEMA_EVOLUTION =
      TableWriteOptions.SCHEMA_EVOLUTION;

  public static final ConfigOption<Boolean> SCHEMA_EVOLUTION_ENABLE_COLUMN_MAPPING =
      TableWriteOptions.SCHEMA_EVOLUTION_ENABLE_COLUMN_MAPPING;

  public static final ConfigOption<Boolean> COMPACTION_ENABLED =
      ConfigOptions.key("sink.compaction.enabled")
          .booleanType()
          .defaultValue(false)
          .withDescription(
              "Compact the table while the sink streams: after every so many commits (see"
                  + " 'sink.compaction.trigger.*'), small files and files with many deleted rows"
                  + " are rewritten per partition into files near the target size, in a version"
                  + " with dataChange = false. The files are written on a thread of its own"
                  + " beside the committer, which commits them right after its next commit, so"
                  + " the stream's commits and the compaction's never race; when another writer"
                  + " changed a file it rewrote, its files are deleted and the next run plans"
                  + " again. In a sink with a primary key, each writer subtask compacts its own"
                  + " files instead, on a thread of its own, and moves its key index to the new"
                  + " files in the checkpoint that commits them; it rewrites at most"
                  + " 'sink.compaction.max-bytes-per-run' divided by the parallelism per run, and"
                  + " holds each moved row's key in memory until then.");

  public static final ConfigOption<Integer> COMPACTION_TRIGGER_COMMITS =
      TableWriteOptions.COMPACTION_TRIGGER_COMMITS;

  public static final ConfigOption<Duration> COMPACTION_TRIGGER_INTERVAL =
      TableWriteOptions.COMPACTION_TRIGGER_INTERVAL;

  public static final ConfigOption<MemorySize> COMPACTION_TARGET_FILE_SIZE =
      TableWriteOptions.COMPACTION_TARGET_FILE_SIZE;

  public static final ConfigOption<Integer> COMPACTION_MIN_INPUT_FILES =
      TableWriteOptions.COMPACTION_MIN_INPUT_FILES;

  public static final ConfigOption<MemorySize> COMPACTION_MAX_BYTES_PER_RUN =
      TableWriteOptions.COMPACTION_MAX_BYTES_PER_RUN;

  public static final ConfigOption<Double> COMPACTION_DELETED_ROWS_RATIO =
      TableWriteOptions.COMPACTION_DELETED_ROWS_RATIO;

  private DeltaSinkOptions() {}
}
