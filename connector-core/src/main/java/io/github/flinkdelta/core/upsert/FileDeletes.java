/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.upsert;

import io.github.flinkdelta.core.deletion.RowPositions;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.flink.annotation.Internal;

/**
 * The rows a checkpoint deletes, per data file (by {@link io.github.flinkdelta.core.write.FileIds
 * file id}): positions of rows replaced by a newer value of their key or deleted. Files of the same
 * checkpoint and files already in the table are named alike; the committer tells them apart.
 *
 * <p>Beside the positions, the keys of the rows deleted outright (by a {@code DELETE} or {@code
 * UPDATE_BEFORE}): when another writer moved or deleted a row a position names, or wrote a key the
 * checkpoint touches, the committer finds the key's rows by these keys, and by the keys of the
 * checkpoint's new rows, instead.
 *
 * <p>The {@link #indexVersion() index version}: the table version up to which the writers' key
 * index had taken in the changes of other writers when the checkpoint began. Rows another writer
 * added after it are unknown to the index, and the committer settles the checkpoint's keys against
 * them.
 *
 * <p>And the files the writers compacted ({@link RewriteLayout}): each writer rewrites files that
 * only its own keys live in and moves its index entries to the new files. The committer commits the
 * checkpoint's changes first and the rewrite in a version of its own, which changes no row.
 *
 * <p>A writer fills one while a checkpoint runs and hands it on at the barrier; from then on it is
 * read only, merged into a new one by the aggregator.
 */
@Internal
public final class FileDeletes {

  private static final FileDeletes EMPTY = new FileDeletes();

  private final NavigableMap<Long, RowPositions> positions = new TreeMap<>();
  private long count;

  /** The keys of rows deleted outright; null when unknown (state of an earlier version). */
  private List<String> deletedKeys = new ArrayList<>();

  /** The writers' compactions, committed after the checkpoint's changes. */
  private final List<RewriteLayout> rewrites = new ArrayList<>();

  /**
   * Files rewritten, and files written in their place, by a compaction handed on by an earlier
   * connector version, which committed both in the checkpoint's own version; only in restored
   * state.
   */
  private final NavigableSet<Long> legacyRewrittenInputs = new TreeSet<>();

  private final NavigableSet<Long> legacyRewrittenOutputs = new TreeSet<>();

  /** See {@link #indexVersion()}; -1 when unknown. */
  private long indexVersion = UNKNOWN_VERSION;

  /** The index version of deletes whose writers did not say it (state of earlier versions). */
  public static final long UNKNOWN_VERSION = -1;

  /** An empty set to fill. */
  public FileDeletes() {}

  /** The empty set, not to be filled. */
  public static FileDeletes empty() {
    return EMPTY;
  }

  /**
   * The union of {@code parts}, which are left as they are; its index version is the least of
   * theirs, and unknown when one of theirs is.
   */
  public static FileDeletes union(Collection<FileDeletes> parts) {
    FileDeletes union = new FileDeletes();
    long indexVersion = Long.MAX_VALUE;
    for (FileDeletes part : parts) {
      part.positions.forEach(
          (file, rows) ->
              union.positions.computeIfAbsent(file, f -> new RowPositions()).addAll(rows));
      union.rewrites.addAll(part.rewrites);
      union.legacyRewrittenInputs.addAll(part.legacyRewrittenInputs);
      union.legacyRewrittenOutputs.addAll(part.legacyRewrittenOutputs);
      if (part.deletedKeys == null) {
        union.deletedKeys = null;
      } else if (union.deletedKeys != null) {
        union.deletedKeys.addAll(part.deletedKeys);
      }
      indexVersion = Math.min(indexVersion, part.indexVersion);
    }
    union.indexVersion = indexVersion == Long.MAX_VALUE ? UNKNOWN_VERSION : indexVersion;
    union.count = union.positions.values().stream().mapToLong(RowPositions::cardinality).sum();
    return union;
  }

  /** Marks row {@code position} of file {@code fileId} deleted. */
  public void add(long fileId, long position) {
    if (this == EMPTY) {
      throw new UnsupportedOperationException("The empty file deletes take no rows");
    }
    RowPositions rows = positions.computeIfAbsent(fileId, f -> new RowPositions());
    long before = rows.cardinality();
    rows.add(position);
    count += rows.cardinality() - before;
  }

  /**
   * Records that the checkpoint deleted {@code key} without writing a new row: after {@link #add
   * adding} the position of the row the index knew, or without one when it knew none (another
   * writer may have written the key since the index looked, which the commit settles by key).
   */
  public void addDeletedKey(String key) {
    if (this == EMPTY) {
      throw new UnsupportedOperationException("The empty file deletes take no keys");
    }
    if (deletedKeys != null) {
      deletedKeys.add(key);
    }
  }

  /**
   * Records that the checkpoint began with a key index that had taken in the changes of other
   * writers up to table version {@code version}.
   */
  public void setIndexVersion(long version) {
    if (this == EMPTY) {
      throw new UnsupportedOperationException("The empty file deletes take no index version");
    }
    this.indexVersion = version;
  }

  /**
   * The table version up to which the key index of the checkpoint's writers had taken in the
   * changes of other writers when the checkpoint began; {@link #UNKNOWN_VERSION} when a writer did
   * not say (state of an earlier connector version).
   */
  public long indexVersion() {
    return indexVersion;
  }

  /**
   * The keys of the rows deleted outright, read only; empty when the positions only replace rows,
   * and absent when unknown: state written before the keys were kept, or deletes of rows whose key
   * stays.
   */
  public Optional<List<String>> deletedKeys() {
    return deletedKeys == null
        ? Optional.empty()
        : Optional.of(Collections.unmodifiableList(deletedKeys));
  }

  /** Records that a writer compacted files as {@code layout} describes, after moving its index. */
  public void addRewrite(RewriteLayout layout) {
    if (this == EMPTY) {
      throw new UnsupportedOperationException("The empty file deletes take no rewrite");
    }
    rewrites.add(layout);
  }

  /** The writers' compactions, read only. */
  public List<RewriteLayout> rewrites() {
    return Collections.unmodifiableList(rewrites);
  }

  /**
   * The ids of the checkpoint's files that compactions wrote: they replace rewritten files and hold
   * no new data.
   */
  public Set<Long> rewrittenOutputs() {
    Set<Long> outputs = new TreeSet<>(legacyRewrittenOutputs);
    rewrites.forEach(layout -> outputs.addAll(layout.outputIds()));
    return outputs;
  }

  /**
   * The ids of files an earlier connector version's writer compacted, to be removed in the
   * checkpoint's own version; read only, and empty but in restored state.
   */
  public Set<Long> legacyRewrittenInputs() {
    return Collections.unmodifiableSet(legacyRewrittenInputs);
  }

  /** The files written in place of {@link #legacyRewrittenInputs}, read only. */
  public Set<Long> legacyRewrittenOutputs() {
    return Collections.unmodifiableSet(legacyRewrittenOutputs);
  }

  /**
   * These deletes without the writers' compactions of this connector version, which commit in a
   * version of their own: what the checkpoint's own version deletes.
   */
  public FileDeletes withoutRewrites() {
    FileDeletes kept = without(Map.of());
    kept.rewrites.clear();
    return kept;
  }

  /** These deletes without the positions {@code stale} names; the keys and rewrites stay. */
  public FileDeletes without(Map<Long, RowPositions> stale) {
    FileDeletes kept = new FileDeletes();
    positions.forEach(
        (file, rows) -> {
          RowPositions left = rows.copy();
          RowPositions drop = stale.get(file);
          if (drop != null) {
            left.removeAll(drop);
          }
          if (!left.isEmpty()) {
            kept.positions.put(file, left);
            kept.count += left.cardinality();
          }
        });
    kept.deletedKeys = deletedKeys == null ? null : new ArrayList<>(deletedKeys);
    kept.rewrites.addAll(rewrites);
    kept.legacyRewrittenInputs.addAll(legacyRewrittenInputs);
    kept.legacyRewrittenOutputs.addAll(legacyRewrittenOutputs);
    kept.indexVersion = indexVersion;
    return kept;
  }

  /** Whether no row or key is deleted and no file rewritten. */
  public boolean isEmpty() {
    return count == 0
        && (deletedKeys == null || deletedKeys.isEmpty())
        && rewrites.isEmpty()
        && legacyRewrittenInputs.isEmpty();
  }

  /** The number of deleted rows. */
  public long count() {
    return count;
  }

  /** The deleted positions by file id, in file id order; read only. */
  public Map<Long, RowPositions> byFile() {
    return Collections.unmodifiableMap(positions);
  }

  /**
   * Writes the deletes: the number of files, then per file its id and positions; then the number of
   * deleted keys (-1 when unknown) and each key as length-prefixed UTF-8; then the index version,
   * and the number of rewrites and each {@link RewriteLayout}.
   */
  public void writeTo(DataOutput out) throws IOException {
    if (!legacyRewrittenInputs.isEmpty()) {
      // Restored state is committed, never written again: the aggregator makes new committables.
      throw new IllegalStateException("Deletes with a compaction of an earlier version are final");
    }
    out.writeInt(positions.size());
    for (Map.Entry<Long, RowPositions> entry : positions.entrySet()) {
      out.writeLong(entry.getKey());
      entry.getValue().writeTo(out);
    }
    if (deletedKeys == null) {
      out.writeInt(-1);
    } else {
      out.writeInt(deletedKeys.size());
      for (String key : deletedKeys) {
        byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
        out.writeInt(bytes.length);
        out.write(bytes);
      }
    }
    out.writeLong(indexVersion);
    out.writeInt(rewrites.size());
    for (RewriteLayout layout : rewrites) {
      layout.writeTo(out);
    }
  }

  private static void readIds(DataInput in, Set<Long> into) throws IOException {
    int ids = in.readInt();
    if (ids < 0) {
      throw new IOException("Corrupt sink state: " + ids + " rewritten files");
    }
    for (int i = 0; i < ids; i++) {
      into.add(in.readLong());
    }
  }

  /** The layouts of state: what each version after the first with deletes added. */
  public enum Format {
    /** Positions only. */
    POSITIONS,
    /** And the deleted keys. */
    DELETED_KEYS,
    /** And the ids of the files writers compacted, committed in the checkpoint's own version. */
    REWRITTEN_IDS,
    /** The index version and rewrite layouts instead of the ids: this version's. */
    INDEX_VERSION
  }

  /** Reads what {@link #writeTo} wrote, or what an earlier version wrote in {@code format}. */
  public static FileDeletes readFrom(DataInput in, Format format) throws IOException {
    int files = in.readInt();
    if (files < 0) {
      throw new IOException("Corrupt sink state: " + files + " files with deletes");
    }
    FileDeletes deletes = new FileDeletes();
    for (int i = 0; i < files; i++) {
      long file = in.readLong();
      RowPositions rows = RowPositions.readFrom(in);
      deletes.positions.put(file, rows);
      deletes.count += rows.cardinality();
    }
    if (format == Format.POSITIONS) {
      deletes.deletedKeys = null;
      return files == 0 ? EMPTY : deletes;
    }
    int keys = in.readInt();
    if (keys < -1) {
      throw new IOException("Corrupt sink state: " + keys + " deleted keys");
    }
    if (keys == -1) {
      deletes.deletedKeys = null;
    }
    for (int i = 0; i < keys; i++) {
      int length = in.readInt();
      if (length < 0 || length > MAX_KEY_BYTES) {
        throw new IOException("Corrupt sink state: a deleted key of " + length + " bytes");
      }
      byte[] bytes = new byte[length];
      in.readFully(bytes);
      deletes.deletedKeys.add(new String(bytes, StandardCharsets.UTF_8));
    }
    if (format == Format.REWRITTEN_IDS) {
      readIds(in, deletes.legacyRewrittenInputs);
      readIds(in, deletes.legacyRewrittenOutputs);
    } else if (format == Format.INDEX_VERSION) {
      deletes.indexVersion = in.readLong();
      int rewrites = in.readInt();
      if (rewrites < 0) {
        throw new IOException("Corrupt sink state: " + rewrites + " rewrites");
      }
      for (int i = 0; i < rewrites; i++) {
        deletes.rewrites.add(RewriteLayout.readFrom(in));
      }
    }
    boolean nothing =
        files == 0
            && keys == 0
            && deletes.rewrites.isEmpty()
            && deletes.legacyRewrittenInputs.isEmpty()
            && deletes.indexVersion == UNKNOWN_VERSION;
    return nothing ? EMPTY : deletes;
  }

  private static final int MAX_KEY_BYTES = 1 << 24;

  @Override
  public boolean equals(Object other) {
    return other instanceof FileDeletes that
        && positions.equals(that.positions)
        && Objects.equals(deletedKeys, that.deletedKeys)
        && indexVersion == that.indexVersion
        && rewrites.equals(that.rewrites)
        && legacyRewrittenInputs.equals(that.legacyRewrittenInputs)
        && legacyRewrittenOutputs.equals(that.legacyRewrittenOutputs);
  }

  @Override
  public int hashCode() {
    return positions.hashCode() * 31 + Objects.hashCode(deletedKeys);
  }

  @Override
  public String toString() {
    return "FileDeletes["
        + count
        + " rows in "
        + positions.size()
        + " files, index at version "
        + indexVersion
        + (rewrites.isEmpty() ? "" : ", " + rewrites.size() + " rewrites")
        + "]";
  }
}
