/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.upsert;

import io.github.flinkdelta.core.deletion.DeletionVectorDescriptor;
import io.github.flinkdelta.core.deletion.RowPositions;
import io.github.flinkdelta.core.write.RowLocation;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Function;
import org.apache.flink.annotation.Internal;

/**
 * Applies what other writers did to the table ({@link KeyChanges}) to an upsert writer's key index,
 * version after version, so that the index follows the table without a rescan:
 *
 * <ul>
 *   <li>a row another writer deleted, or whose file it removed, leaves the index when the index
 *       points at it;
 *   <li>a row it moved ({@code OPTIMIZE}, any compaction: added with {@code dataChange = false}
 *       where the same version removed the row the index pointed at) takes the key's entry with it;
 *   <li>a row it wrote ({@code INSERT}, an {@code UPDATE} or {@code MERGE}) becomes the key's row:
 *       the stream's next change of the key deletes it. When the index points at another row of the
 *       key, the later of the two stays: the other writer's when the index's row was committed
 *       before its version (that row is deleted by the writer's next commit), the stream's when the
 *       row is in a checkpoint the table does not hold yet (its commit settles the key against the
 *       other writer's rows).
 * </ul>
 *
 * <p>Every rule looks at the index entry as it is when applied, so changes the stream made to the
 * index after the log was read are never undone; applying a version twice changes nothing. A row
 * the index entry of a key no longer points at is left to the commits: the committer settles each
 * checkpoint's keys against the rows other writers added after the index version the checkpoint
 * began with.
 */
@Internal
public final class IndexCatchUp {

  private IndexCatchUp() {}

  /** The writer's key index, as the catch-up reads and changes it. */
  public interface Index {
    RowLocation get(String key) throws IOException;

    void put(String key, RowLocation location) throws IOException;

    void remove(String key) throws IOException;
  }

  /**
   * What applying changed.
   *
   * @param versions versions of other writers applied
   * @param removed entries removed: rows deleted, or files removed
   * @param moved entries that followed a moved row
   * @param written keys whose row is now another writer's
   * @param duplicates rows of the index that another writer's row of the same key replaced, which
   *     the next commit deletes
   */
  public record Outcome(long versions, long removed, long moved, long written, long duplicates) {}

  /**
   * Applies {@code changes} to {@code index}.
   *
   * @param pending what the writer handed on that the table may not hold yet; updated with the
   *     sink's own versions the changes pass
   * @param vectors reads the rows of a deletion vector (those of compactions' inputs)
   * @param deletes where the rows another writer's row replaced go: the deletes of the writer's
   *     next checkpoint
   */
  public static Outcome apply(
      KeyChanges changes,
      Index index,
      PendingWrites pending,
      Function<DeletionVectorDescriptor, RowPositions> vectors,
      FileDeletes deletes) {
    long[] counts = new long[5];
    for (KeyChanges.Version version : changes.versions()) {
      if (version.checkpoint() >= 0) {
        pending.committed(version.checkpoint());
      }
      if (version.rewriteCheckpoint() >= 0) {
        pending.rewritesCommitted(version.rewriteCheckpoint());
      }
      if (!version.isForeign()) {
        continue;
      }
      counts[0]++;
      Set<String> vacated = new HashSet<>();
      changes.forEach(
          version,
          (key, change, row) -> {
            try {
              applyOne(index, pending, vectors, deletes, vacated, counts, key, change, row);
            } catch (IOException e) {
              throw new UncheckedIOException("Cannot update the key index", e);
            }
          });
    }
    return new Outcome(counts[0], counts[1], counts[2], counts[3], counts[4]);
  }

  private static void applyOne(
      Index index,
      PendingWrites pending,
      Function<DeletionVectorDescriptor, RowPositions> vectors,
      FileDeletes deletes,
      Set<String> vacated,
      long[] counts,
      String key,
      KeyChanges.Change change,
      RowLocation row)
      throws IOException {
    RowLocation current = index.get(key);
    switch (change) {
      case REMOVED -> {
        if (current != null
            && (current.equals(row)
                || current.equals(pending.rewriteTarget(row, current, vectors)))) {
          index.remove(key);
          vacated.add(key);
          counts[1]++;
        }
      }
      case MOVED_IN -> {
        if (vacated.remove(key)) {
          index.put(key, row);
          counts[1]--;
          counts[2]++;
        }
      }
      case WRITTEN -> {
        if (vacated.remove(key)) {
          counts[1]--;
        } else if (current != null) {
          if (current.equals(row) || pending.isPending(current.fileId())) {
            return;
          }
          deletes.add(current.fileId(), current.position());
          counts[4]++;
        }
        index.put(key, row);
        counts[3]++;
      }
    }
  }
}
