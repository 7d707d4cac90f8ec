/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.upsert;

import io.github.flinkdelta.core.upsert.FileDeletes;
import io.github.flinkdelta.core.upsert.KeyChanges;
import io.github.flinkdelta.core.upsert.PendingWrites;
import io.github.flinkdelta.core.upsert.RewriteLayout;
import io.github.flinkdelta.core.write.DataFile;
import io.github.flinkdelta.core.write.DataFiles;
import io.github.flinkdelta.core.write.FileIds;
import io.github.flinkdelta.core.write.PartitionedDataWriter;
import io.github.flinkdelta.core.write.RowLocation;
import io.github.flinkdelta.sink.compaction.UpsertCompaction;
import io.github.flinkdelta.sink.internal.ConnectorClassLoader;
import io.github.flinkdelta.sink.internal.DeltaSinkConfig;
import io.github.flinkdelta.sink.internal.SinkErrors;
import io.github.flinkdelta.sink.writer.DeltaSinkWriterMetrics;
import io.github.flinkdelta.sink.writer.DeltaWriteResult;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.function.IntPredicate;
import org.apache.flink.annotation.Internal;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.table.data.RowData;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One table's upsert writing in one writer subtask: writes each new value into an open data file,
 * keeps the key index pointing at every key's live row, collects the deletes of replaced rows, and
 * hands files and deletes on at each checkpoint barrier. The single-table sink's operator ({@link
 * UpsertWriterOperator}) runs one; the dynamic sink's runs one per table, on one shared index.
 *
 * <p>The index follows the table: after each checkpoint an {@link IndexFollower} reads what other
 * writers' versions since the index's version did to the subtask's keys, and at the next barrier
 * they are applied ({@link KeyIndexMoves}). Each hand-over names the index version its checkpoint
 * began with, and the committer settles the checkpoint's keys against what other writers added
 * after it, so a commit is exact however far the index lags.
 *
 * <p>Exactly once: the index in a checkpoint points into files that the same checkpoint's
 * committable commits (or that are in the table already); a restore restores the index of that
 * checkpoint with it, and what the restored checkpoints left pending. Without a restored index (the
 * first start on a table that may hold rows), it reads the keys of the table's live rows first,
 * keeping those of the subtask's key groups.
 */
@Internal
public final class TableUpsertWriter implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(UpsertWriterOperator.class);

  /** Where a writer hands on each checkpoint's files and deletes. */
  @FunctionalInterface
  public interface ResultOutput {
    void handOver(DeltaWriteResult result) throws IOException;
  }

  /** Where a writer gets its open files: one writer of its own, or one under a shared budget. */
  @FunctionalInterface
  public interface FileWriterFactory {
    /** A writer that holds no rows, so that it can say where each lands. */
    PartitionedDataWriter open(DeltaSinkConfig config, String filePrefix);
  }

  private final DeltaSinkConfig config;
  private final int subtask;
  private final int parallelism;
  private final IndexKeys keys;
  private final UpsertKeyIndex index;
  private final ResultOutput output;

  /** The table version up to which the index has taken in the changes of other writers. */
  private long indexVersion;

  private long generation;
  private long lastResult;

  /** The sink's app id; null when restored from state that did not keep it. */
  private final String appId;

  private PendingWrites pending;
  private FileDeletes deletes = new FileDeletes();
  private PartitionedDataWriter files;
  private FileWriterFactory fileWriters;
  private String filePrefix;
  private int layouts;

  /** Files completed when the rows changed shape, handed on with the checkpoint's. */
  private final List<DataFiles> carried = new ArrayList<>();

  private DeltaSinkWriterMetrics metrics;
  private Counter deleted;
  private Counter foreignRows;
  private UpsertCompaction compaction;
  private IndexFollower follower;
  private KeyIndexMoves moves;

  /**
   * Starts a table's writer: reads the table's keys into the index when nothing was restored, or
   * anew when the restored index can no longer follow the table's log.
   *
   * @param index the subtask's key index; with {@code keys} it is the table's part of it
   * @param restored what the subtask's state restored for the table
   */
  public TableUpsertWriter(
      DeltaSinkConfig config,
      int subtask,
      int parallelism,
      IndexKeys keys,
      UpsertKeyIndex index,
      UpsertWriterState.Restored restored,
      ResultOutput output)
      throws InterruptedException {
    this(config, subtask, parallelism, keys, index, restored, group -> false, output);
  }

  /**
   * As the constructor above, for an index restored from subtasks that held the table's entries for
   * some key groups only: the keys of the {@code unbuilt} groups are read from the table, once it
   * holds the restored checkpoints' commits.
   *
   * @param unbuilt the subtask's key groups whose entries of the table no restored subtask kept
   */
  public TableUpsertWriter(
      DeltaSinkConfig config,
      int subtask,
      int parallelism,
      IndexKeys keys,
      UpsertKeyIndex index,
      UpsertWriterState.Restored restored,
      IntPredicate unbuilt,
      ResultOutput output)
      throws InterruptedException {
    this.config = config;
    this.subtask = subtask;
    this.parallelism = parallelism;
    this.keys = keys;
    this.index = keys.view(index);
    this.output = output;
    // Subtasks follow the log at their own pace; after a rescale, the least version is where
    // every restored entry is caught up.
    this.indexVersion = restored.indexVersion();
    this.generation = restored.generation();
    this.lastResult = restored.lastResult();
    this.appId = config.appIdFor(restored.appId(), restored.any());
    this.pending = restored.pending();
    if (!restored.any()) {
      buildIndex();
    } else if (!loader().canFollow(indexVersion)) {
      rebuildIndex();
    } else if (keys.range().getNumberOfKeyGroups() > 0
        && java.util.stream.IntStream.rangeClosed(
                keys.range().getStartKeyGroup(), keys.range().getEndKeyGroup())
            .anyMatch(unbuilt)) {
      if (appId == null) {
        throw new IllegalStateException(SinkErrors.followNeedsAppId(config.tableName()));
      }
      // Entries read at a later version than the index's: the follower's catch-up from the
      // index's version applies those versions again, which changes nothing.
      loader().awaitCommitted(appId, lastResult);
      loader().readTable(this.index, deletes, unbuilt);
    }
  }

  /**
   * Reads the table's keys into a new generation of the index when the restored index cannot follow
   * the log (log cleanup removed the versions after it): once the table holds every commit of the
   * restored checkpoints, so that no restored row is missed.
   */
  private void rebuildIndex() throws InterruptedException {
    if (appId == null) {
      throw new IllegalStateException(SinkErrors.followNeedsAppId(config.tableName()));
    }
    loader().awaitCommitted(appId, lastResult);
    LOG.info(
        "Delta upsert writer {} of {} reads the table's keys anew: its log no longer holds the"
            + " versions after {}, which the restored key index has taken in",
        subtask,
        config.tableName(),
        indexVersion);
    generation++;
    index.startGeneration(generation);
    pending = new PendingWrites();
    buildIndex();
  }

  private void buildIndex() {
    indexVersion = loader().readTable(index, deletes);
  }

  private KeyIndexLoader loader() {
    return new KeyIndexLoader(config, subtask, keys);
  }

  /**
   * Opens the writer's files, its compaction and the follower of the table's log.
   *
   * @param operatorMetrics the operator's metric group, under which the table's metrics go
   * @param followers where the follower's reads run, each at least {@code followInterval} after the
   *     one before; null for a thread of the table's own, which reads at every checkpoint
   * @param compactions where the compaction's runs go; null for a thread of the table's own
   */
  public void open(
      MetricGroup operatorMetrics,
      FileWriterFactory fileWriters,
      ExecutorService followers,
      Duration followInterval,
      ExecutorService compactions) {
    // A fresh prefix per writer instance keeps file names unique across subtasks and restarts.
    this.filePrefix = String.format("part-%05d-%s", subtask, java.util.UUID.randomUUID());
    this.fileWriters = fileWriters;
    try (var loader = ConnectorClassLoader.enter()) {
      files = fileWriters.open(config, filePrefix);
    }
    metrics = DeltaSinkWriterMetrics.ofUpsertWriter(operatorMetrics, config.tableName(), files);
    MetricGroup delta = DeltaSinkWriterMetrics.deltaGroup(operatorMetrics, config.tableName());
    deleted = delta.counter("numRowsDeleted");
    foreignRows = delta.counter("numForeignRowChangesFollowed");
    delta.gauge("keyIndexVersion", () -> indexVersion);
    if (config.compaction() != null) {
      compaction =
          new UpsertCompaction(
              config, subtask, parallelism, keys::owns, delta, System::nanoTime, compactions);
    }
    follower =
        followers == null
            ? new IndexFollower(config, subtask, keys, appId)
            : new IndexFollower(config, subtask, keys, appId, followers, false, followInterval);
    moves = new KeyIndexMoves(config, subtask);
    follower.request(indexVersion);
  }

  /**
   * Writes the next rows into files laid out as {@code shape} says (the rows changed shape, and the
   * table with them); the open files are completed and handed on with the checkpoint's.
   */
  public void writeFilesOf(DeltaSinkConfig shape) throws IOException {
    try (var loader = ConnectorClassLoader.enter()) {
      carried.add(files.flush());
      files.close();
      files = fileWriters.open(shape, filePrefix + "-l" + ++layouts);
    }
  }

  /**
   * Writes {@code row} as its key's live row, or deletes the key's row, by the row's kind.
   *
   * @param key the row's primary key, as the table's key columns encode it
   */
  public void write(String key, RowData row) throws IOException {
    RowLocation previous = index.get(key);
    switch (row.getRowKind()) {
      case INSERT, UPDATE_AFTER -> {
        if (previous != null) {
          deletes.add(previous.fileId(), previous.position());
        }
        RowLocation location;
        try (var loader = ConnectorClassLoader.enter()) {
          location = files.append(row);
        }
        index.put(key, location);
        metrics.recordWritten();
      }
      case DELETE, UPDATE_BEFORE -> {
        // An UPDATE_BEFORE retracts the key's row; the UPDATE_AFTER that follows writes it anew.
        if (previous != null) {
          deletes.add(previous.fileId(), previous.position());
          index.remove(key);
          deleted.inc();
        }
        // Also when the index knows no row of the key: another writer may have written it in a
        // version the index has not taken in yet, which the commit settles by this key.
        deletes.addDeletedKey(key);
      }
    }
  }

  /** Hands on the checkpoint's files and deletes, then applies what other writers did. */
  public void prepareSnapshotPreBarrier(long checkpointId) throws IOException {
    if (handOver(checkpointId)) {
      lastResult = checkpointId;
    }
    catchUp();
    follower.request(indexVersion);
  }

  /** Hands on the last files; nothing follows. A compaction still running is dropped. */
  public void endInput() throws IOException {
    handOver(Long.MAX_VALUE);
    if (compaction != null) {
      compaction.close();
      compaction = null;
    }
  }

  /**
   * Completes the open files and sends them, with the deletes, the index version the checkpoint
   * began with and a ready compaction, on to the sink's writer.
   *
   * @return whether there was anything to send
   */
  private boolean handOver(long checkpointId) throws IOException {
    DataFiles completed;
    long started = System.nanoTime();
    try (var loader = ConnectorClassLoader.enter()) {
      carried.add(files.flush());
      completed = DataFiles.concat(carried);
      carried.clear();
    }
    metrics.flushed((System.nanoTime() - started) / 1_000_000);
    metrics.filesCompleted(completed);
    List<Long> written = new ArrayList<>();
    for (DataFile file : completed.toList()) {
      written.add(FileIds.of(file.path()));
    }
    Optional<UpsertCompaction.Rewrite> rewrite =
        compaction == null ? Optional.empty() : compaction.takeReady();
    List<RewriteLayout> layouts = new ArrayList<>();
    if (rewrite.isPresent()) {
      layouts.add(moves.moveIndex(index, rewrite.get()));
      deletes.addRewrite(layouts.get(0));
      completed = DataFiles.concat(List.of(completed, rewrite.get().prepared().writtenFiles()));
    }
    deletes.setIndexVersion(indexVersion);
    boolean any = !completed.isEmpty() || !deletes.isEmpty();
    if (any) {
      output.handOver(new DeltaWriteResult(completed, deletes));
      deletes = new FileDeletes();
      pending.handedOver(checkpointId, written, layouts);
    }
    if (compaction != null) {
      compaction.checkpointed(indexVersion);
    }
    return any;
  }

  /** Applies what other writers did to the table, as the follower has read it, to the index. */
  private void catchUp() {
    Optional<KeyChanges> ready = follower.takeReady();
    if (ready.isEmpty() || ready.get().fromVersion() != indexVersion) {
      // A read from another version (the index was read anew since) is dropped.
      return;
    }
    KeyChanges changes = ready.get();
    moves.applyForeign(index, changes, pending, deletes);
    indexVersion = changes.toVersion();
    foreignRows.inc(changes.size());
  }

  /** What the subtask's state keeps of this table. */
  public UpsertWriterState.Restored state(boolean onHeap) {
    return new UpsertWriterState.Restored(
        true, indexVersion, generation, lastResult, onHeap, appId, pending);
  }

  @Override
  public void close() {
    try {
      try {
        if (follower != null) {
          follower.close();
        }
      } finally {
        if (compaction != null) {
          compaction.close();
        }
      }
    } finally {
      if (files != null) {
        try (var loader = ConnectorClassLoader.enter()) {
          files.close();
        }
      }
    }
  }
}
