/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.checkpoint;

import io.delta.kernel.Snapshot;
import io.delta.kernel.Snapshot.ChecksumWriteMode;
import io.delta.kernel.engine.Engine;
import java.io.IOException;
import java.util.Optional;
import org.apache.flink.annotation.Internal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the version checksum ({@code _delta_log/<version>.crc}) of the versions this process
 * commits, which the Delta protocol asks writers to do for every commit.
 *
 * <p>It matters for commit cost: Kernel reads a snapshot's protocol, metadata and domain metadata
 * from the checksum at its version when there is one, and replays the log segment (checkpoint
 * included) when there is none. Every transaction asks for the domain metadata of the snapshot it
 * starts from, so without checksums each commit replays a log that grows with the table. A checksum
 * is cheap once its predecessor is known: Kernel derives version {@code v}'s from {@code v - 1}'s
 * and the commit's actions, in memory, and hands it on in the post-commit snapshot. The chain
 * starts from the table's creation, or from a checksum Kernel computes from an earlier one in a few
 * versions of replay, or, for a table with none in reach, from one computed off the commit path
 * beside a Delta checkpoint ({@link #computeIfNoneInReach}).
 *
 * <p>A checksum that cannot be written is logged and left: the commit it describes has happened,
 * and readers work without checksums.
 */
@Internal
public final class VersionChecksums {

  private static final Logger LOG = LoggerFactory.getLogger(VersionChecksums.class);

  /**
   * The most versions Kernel replays on the commit path to derive a checksum from an earlier one:
   * about what a Delta checkpoint interval leaves between checkpoints.
   */
  static final int MAX_VERSIONS_REPLAYED = 100;

  private VersionChecksums() {}

  /**
   * Writes the checksum of the version {@code committed} is at, when it is known in memory or can
   * be derived from one at most {@link #MAX_VERSIONS_REPLAYED} versions back.
   *
   * @return whether the checksum was derived by replay: the snapshot holds it only once reloaded,
   *     and its successors are derived in memory only from a snapshot that holds it
   */
  public static boolean afterCommit(Engine engine, Snapshot committed) {
    try {
      Optional<ChecksumWriteMode> mode = committed.getStatistics().getChecksumWriteMode();
      if (mode.isEmpty()) {
        return false;
      }
      if (mode.get() == ChecksumWriteMode.SIMPLE) {
        committed.writeChecksum(engine, ChecksumWriteMode.SIMPLE);
        return false;
      }
      Optional<Integer> replay = committed.getStatistics().getIncrementalChecksumLoadCost();
      if (replay.isEmpty() || replay.get() > MAX_VERSIONS_REPLAYED) {
        return false;
      }
      committed.writeChecksum(engine, ChecksumWriteMode.FULL);
      LOG.info(
          "Wrote the version checksum of {} at version {}, derived from the one {} versions back",
          committed.getPath(),
          committed.getVersion(),
          replay.get());
      return true;
    } catch (IOException | RuntimeException e) {
      warn(committed, e);
      return false;
    }
  }

  /**
   * Computes and writes the checksum of {@code snapshot}'s version from the whole log when no
   * checksum is in reach of it; costs about what a Delta checkpoint does, so it runs beside one.
   */
  static void computeIfNoneInReach(Engine engine, Snapshot snapshot) {
    try {
      Optional<ChecksumWriteMode> mode = snapshot.getStatistics().getChecksumWriteMode();
      if (mode.isPresent()
          && mode.get() == ChecksumWriteMode.FULL
          && snapshot.getStatistics().getIncrementalChecksumLoadCost().isEmpty()) {
        long started = System.nanoTime();
        snapshot.writeChecksum(engine, ChecksumWriteMode.FULL);
        LOG.info(
            "Wrote the version checksum of {} at version {} from its whole log in {} ms",
            snapshot.getPath(),
            snapshot.getVersion(),
            (System.nanoTime() - started) / 1_000_000);
      }
    } catch (IOException | RuntimeException e) {
      warn(snapshot, e);
    }
  }

  private static void warn(Snapshot snapshot, Exception e) {
    LOG.warn(
        "Could not write the version checksum of {} at version {}; the table is unaffected and"
            + " commits go on without it",
        snapshot.getPath(),
        snapshot.getVersion(),
        e);
  }
}
