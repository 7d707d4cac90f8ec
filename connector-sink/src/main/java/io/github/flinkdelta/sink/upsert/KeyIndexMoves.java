/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.upsert;

import io.github.flinkdelta.core.deletion.DeletionVectorDescriptor;
import io.github.flinkdelta.core.deletion.DeletionVectorReader;
import io.github.flinkdelta.core.deletion.RowPositions;
import io.github.flinkdelta.core.upsert.FileDeletes;
import io.github.flinkdelta.core.upsert.IndexCatchUp;
import io.github.flinkdelta.core.upsert.KeyChanges;
import io.github.flinkdelta.core.upsert.PendingWrites;
import io.github.flinkdelta.core.upsert.RewriteLayout;
import io.github.flinkdelta.core.write.RowLocation;
import io.github.flinkdelta.sink.compaction.UpsertCompaction;
import io.github.flinkdelta.sink.internal.ConnectorClassLoader;
import io.github.flinkdelta.sink.internal.DeltaSinkConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.hadoop.conf.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves an upsert writer subtask's key index with its rows when something other than the stream
 * moves them: the subtask's own compaction, whose rewrite the checkpoint hands on, and other
 * writers, whose versions {@link IndexFollower} has read. Runs on the task thread, at a barrier.
 */
final class KeyIndexMoves {

  /** The operator's logger: its moves are the operator's to report. */
  private static final Logger LOG = LoggerFactory.getLogger(UpsertWriterOperator.class);

  private final DeltaSinkConfig config;
  private final int subtask;
  private Configuration vectorConf;

  KeyIndexMoves(DeltaSinkConfig config, int subtask) {
    this.config = config;
    this.subtask = subtask;
  }

  /**
   * Moves the index entries of the rows {@code rewrite} moved to their new places, in the
   * checkpoint whose commits move the rows: a row whose key no longer points at the place it was
   * read from (the key changed or went since the compaction read it) is left, as its delete in the
   * rewritten file is carried into the new one when the compaction commits.
   *
   * @return where the compaction put the rows of each file it rewrote
   */
  RewriteLayout moveIndex(UpsertKeyIndex index, UpsertCompaction.Rewrite rewrite) {
    RewriteLayout.Builder layout = new RewriteLayout.Builder(rewrite.prepared().readVectors());
    long[] changed = {0};
    rewrite
        .moved()
        .forEach(
            (key, fromFile, fromPosition, to) -> {
              layout.accept(key, fromFile, fromPosition, to);
              try {
                RowLocation current = index.get(key);
                if (current != null
                    && current.fileId() == fromFile
                    && current.position() == fromPosition) {
                  index.put(key, to);
                } else {
                  changed[0]++;
                }
              } catch (IOException e) {
                throw new UncheckedIOException("Cannot move the key index", e);
              }
            });
    RewriteLayout built =
        layout.build(rewrite.prepared().plannedVersion(), rewrite.prepared().removedIds());
    LOG.info(
        "Delta upsert writer {} of {} hands on a compaction of {} files into {}: {} rows moved, {}"
            + " of them changed since it read them",
        subtask,
        config.tableName(),
        rewrite.prepared().inputFiles(),
        built.outputIds().size(),
        rewrite.moved().size(),
        changed[0]);
    return built;
  }

  /** Applies {@code changes}, other writers' versions as the follower read them, to the index. */
  void applyForeign(
      UpsertKeyIndex index, KeyChanges changes, PendingWrites pending, FileDeletes deletes) {
    long started = System.nanoTime();
    IndexCatchUp.Outcome outcome;
    try (var loader = ConnectorClassLoader.enter()) {
      outcome = IndexCatchUp.apply(changes, index, pending, this::readVector, deletes);
    }
    if (outcome.versions() > 0) {
      LOG.info(
          "Delta upsert writer {} of {} followed {} versions of other writers to version {} in {}"
              + " ms: {} keys' rows gone, {} moved, {} written by them ({} of which replace a row"
              + " the next commit deletes)",
          subtask,
          config.tableName(),
          outcome.versions(),
          changes.toVersion(),
          (System.nanoTime() - started) / 1_000_000,
          outcome.removed(),
          outcome.moved(),
          outcome.written(),
          outcome.duplicates());
    }
  }

  private RowPositions readVector(DeletionVectorDescriptor vector) {
    if (vectorConf == null) {
      vectorConf = config.storageConf();
    }
    try {
      return DeletionVectorReader.read(vectorConf, config.tablePath(), vector);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot read deletion vector " + vector.uniqueId() + " of " + config.tableName(), e);
    }
  }
}
