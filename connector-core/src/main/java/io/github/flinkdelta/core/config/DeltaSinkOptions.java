package io.github.flinkdelta.core.config;

import java.time.Duration;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.MemorySize;

/**
 * The options of the Delta sink. The DataStream builder ({@code DeltaSink.builder().option(...)})
 * and the SQL connector ({@code WITH ('sink.…' = …)}) both resolve them through one reader, so an
 * option means the same everywhere.
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

  /** Parquet compression codecs the writer offers. */
  public enum Compression {
    SNAPPY,
    ZSTD,
    GZIP,
    UNCOMPRESSED
  }

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

  /** How the sink reconciles the rows' columns with the table's schema. */
  public enum SchemaEvolution {
    /** Any difference between the rows and the table fails the build, listed in one message. */
    NONE("none"),
    /** Columns the table lacks are added as nullable columns, top level and nested. */
    ADD_COLUMNS("add-columns"),
    /** Also widens column types and makes NOT NULL columns nullable. */
    WIDEN("widen");

    private final String value;

    SchemaEvolution(String value) {
      this.value = value;
    }

    /** The option's value, as SQL and the configuration spell it. */
    @Override
    public String toString() {
      return value;
    }
  }

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

  private DeltaSinkOptions() {}
}
