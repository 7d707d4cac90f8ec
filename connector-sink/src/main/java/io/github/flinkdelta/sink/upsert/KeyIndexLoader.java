/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.upsert;

import io.github.flinkdelta.core.table.DeltaTable;
import io.github.flinkdelta.core.table.TableRequest;
import io.github.flinkdelta.core.upsert.FileDeletes;
import io.github.flinkdelta.core.write.RowLocation;
import io.github.flinkdelta.sink.DeltaSinkOptions;
import io.github.flinkdelta.sink.internal.ConnectorClassLoader;
import io.github.flinkdelta.sink.internal.DeltaSinkConfig;
import io.github.flinkdelta.sink.internal.SinkErrors;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.function.IntPredicate;
import org.apache.flink.annotation.Internal;
import org.apache.flink.runtime.checkpoint.CheckpointType;
import org.apache.flink.runtime.state.AbstractKeyedStateBackend;
import org.apache.flink.runtime.state.KeyGroupStatePartitionStreamProvider;
import org.apache.flink.runtime.state.KeyedStateBackend;
import org.apache.flink.runtime.state.heap.HeapKeyedStateBackend;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings an upsert writer subtask's key index into being: opens it with what a checkpoint restored,
 * and reads the keys of the table into it at a first start, or when the table's log no longer holds
 * the versions a restored index would follow.
 *
 * @param config the table's configuration, which names the kind
 * @param subtask the writer subtask, for the log
 * @param keys how the table's keys are kept in the index, and which the subtask owns
 */
@Internal
public record KeyIndexLoader(DeltaSinkConfig config, int subtask, IndexKeys keys) {

  /** It logs as the writer it serves. */
  private static final Logger LOG = LoggerFactory.getLogger(UpsertWriterOperator.class);

  /** How long a rebuild waits for the committer to replay the restored checkpoints' commits. */
  private static final Duration REBUILD_WAIT = Duration.ofMinutes(10);

  /**
   * The index of the configured kind, with the entries a checkpoint restored; an index restored
   * into the other kind (the option or the state backend changed since the checkpoint) moves its
   * entries over.
   *
   * @param restored whether a checkpoint held an index (which may be empty)
   * @param restoredOnHeap whether the checkpoint's index was on the heap, in {@code rawInputs}
   * @param generation the restored index's generation
   */
  UpsertKeyIndex open(
      KeyedStateBackend<String> backend,
      Iterable<KeyGroupStatePartitionStreamProvider> rawInputs,
      boolean restored,
      boolean restoredOnHeap,
      long generation)
      throws Exception {
    return open(
        config.keyIndex(),
        "table " + config.tableName(),
        subtask,
        keys,
        backend,
        rawInputs,
        restored,
        restoredOnHeap,
        generation);
  }

  /**
   * The index of kind {@code kind} for a writer subtask, as {@link #open(KeyedStateBackend,
   * Iterable, boolean, boolean, long)} opens it; for an index that holds the keys of many tables.
   *
   * @param owner what the index serves, in messages: "table t", or the tables of a dynamic sink
   * @param keys the subtask's key groups (the prefix is not used)
   */
  public static UpsertKeyIndex open(
      DeltaSinkOptions.KeyIndex kind,
      String owner,
      int subtask,
      IndexKeys keys,
      KeyedStateBackend<String> backend,
      Iterable<KeyGroupStatePartitionStreamProvider> rawInputs,
      boolean restored,
      boolean restoredOnHeap,
      long generation)
      throws Exception {
    boolean onHeap = kind.onHeap(backend instanceof HeapKeyedStateBackend);
    if (backend instanceof AbstractKeyedStateBackend<?> timers
        && timers.requiresLegacySynchronousTimerSnapshots(CheckpointType.CHECKPOINT)) {
      // Such a backend writes its timers into the raw keyed state, which the writer uses.
      throw new IllegalStateException(
          String.format(
              "The Delta sink for %s with a primary key cannot run on %s"
                  + " with its timers on the heap; keep the timers in the backend"
                  + " (state.backend.rocksdb.timer-service.factory: ROCKSDB, the default)",
              owner, backend.getClass().getSimpleName()));
    }
    KeyedStateKeyIndex keyed = KeyedStateKeyIndex.of(backend, generation);
    HeapKeyIndex heap = new HeapKeyIndex(keys.range(), keys.maxParallelism());
    if (restoredOnHeap) {
      heap.restore(rawInputs);
    }
    if (restored && restoredOnHeap != onHeap) {
      UpsertKeyIndex from = restoredOnHeap ? heap : keyed;
      UpsertKeyIndex to = onHeap ? heap : keyed;
      long[] moved = {0};
      from.drainTo(
          (key, location) -> {
            to.put(key, location);
            moved[0]++;
          });
      LOG.info(
          "Delta upsert writer {} of {} moved its key index of {} keys {}",
          subtask,
          owner,
          moved[0],
          onHeap ? "from the state backend to the heap" : "from the heap to the state backend");
    }
    return onHeap ? heap : keyed;
  }

  /**
   * Reads the keys of the table's live rows into {@code index} (as the table's keys see it), those
   * of the subtask's key groups; a key the table holds twice keeps one row, and the others go into
   * {@code deletes}.
   *
   * @return the version read
   */
  long readTable(UpsertKeyIndex index, FileDeletes deletes) {
    return readTable(index, deletes, group -> true);
  }

  /**
   * As {@link #readTable(UpsertKeyIndex, FileDeletes)}, the keys of those of the subtask's key
   * groups that {@code groups} accepts only.
   */
  long readTable(UpsertKeyIndex index, FileDeletes deletes, IntPredicate groups) {
    long started = System.nanoTime();
    long[] counts = new long[2];
    long version;
    try (var loader = ConnectorClassLoader.enter();
        DeltaTable table = DeltaTable.open(TableRequest.of(config.table(), config.hadoopConf()))) {
      version = table.snapshot().getVersion();
      counts[0] =
          table.scanKeys(
              config.primaryKey(),
              (key, fileId, position) -> {
                if (!keys.owns(key, groups)) {
                  return;
                }
                try {
                  RowLocation previous = index.get(key);
                  if (previous != null) {
                    // The table holds the key twice: one row stays, the next commit deletes the
                    // others (a delete another writer made stale meanwhile is dropped).
                    deletes.add(previous.fileId(), previous.position());
                    counts[1]++;
                  }
                  index.put(key, new RowLocation(fileId, position));
                } catch (IOException e) {
                  throw new UncheckedIOException("Cannot build the key index", e);
                }
              });
    }
    LOG.info(
        "Delta upsert writer {} of {} read the keys of {} rows of version {} in {} ms{}",
        subtask,
        config.tableName(),
        counts[0],
        version,
        (System.nanoTime() - started) / 1_000_000,
        counts[1] == 0 ? "" : "; " + counts[1] + " rows repeat a key and will be deleted");
    return version;
  }

  /**
   * Whether the table's log still holds every version after {@code indexVersion}, which a restored
   * index follows from.
   */
  boolean canFollow(long indexVersion) {
    try (var loader = ConnectorClassLoader.enter();
        DeltaTable table = DeltaTable.open(TableRequest.of(config.table(), config.hadoopConf()))) {
      return table.logReadableAfter(indexVersion);
    }
  }

  /**
   * Waits until the table holds the commits of the sink's checkpoints up to {@code checkpoint}, the
   * last one whose results the restored writers handed on, so that a rebuild of the index from the
   * table misses none of their rows.
   */
  void awaitCommitted(String appId, long checkpoint) throws InterruptedException {
    try (var loader = ConnectorClassLoader.enter();
        DeltaTable table = DeltaTable.open(TableRequest.of(config.table(), config.hadoopConf()))) {
      long deadline = System.nanoTime() + REBUILD_WAIT.toNanos();
      while (table.transactionVersion(appId) < checkpoint) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException(
              SinkErrors.rebuildTimedOut(
                  config.tableName(), appId, checkpoint, table.transactionVersion(appId)));
        }
        Thread.sleep(200);
        table.reload();
      }
    }
  }
}
