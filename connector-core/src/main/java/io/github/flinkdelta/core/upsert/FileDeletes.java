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
 * UPDATE_BEFORE}): when another writer moved or deleted a row a position names, the committer finds
 * the key's live rows by these keys, and by the keys of the checkpoint's new rows, instead.
 *
 * <p>And the files the writers compacted: each writer rewrites files that only its own keys live in
 * and moves its index entries to the new files ({@link #addRewrite}). The commit removes the
 * rewritten files and adds their replacements, which are among the checkpoint's files, with {@code
 * dataChange = false}: they hold no new data.
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

  /** Ids of the files a writer's compaction rewrote, and of the files it wrote in their place. */
  private final NavigableSet<Long> rewrittenInputs = new TreeSet<>();

  private final NavigableSet<Long> rewrittenOutputs = new TreeSet<>();

  /** An empty set to fill. */
  public FileDeletes() {}

  /** The empty set, not to be filled. */
  public static FileDeletes empty() {
    return EMPTY;
  }

  /** The union of {@code parts}, which are left as they are. */
  public static FileDeletes union(Collection<FileDeletes> parts) {
    FileDeletes union = new FileDeletes();
    for (FileDeletes part : parts) {
      part.positions.forEach(
          (file, rows) ->
              union.positions.computeIfAbsent(file, f -> new RowPositions()).addAll(rows));
      union.rewrittenInputs.addAll(part.rewrittenInputs);
      union.rewrittenOutputs.addAll(part.rewrittenOutputs);
      if (part.deletedKeys == null) {
        union.deletedKeys = null;
      } else if (union.deletedKeys != null) {
        union.deletedKeys.addAll(part.deletedKeys);
      }
    }
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
   * Records that the checkpoint deleted the live row of {@code key} without writing a new one,
   * after {@link #add adding} the row's position.
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
   * Records that some positions delete rows whose keys stay live elsewhere (a key the table held
   * twice): such deletes cannot be settled by key, so {@link #deletedKeys} becomes unknown.
   */
  public void addUnkeyed(long fileId, long position) {
    add(fileId, position);
    deletedKeys = null;
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

  /**
   * Records that a writer rewrote the files {@code inputs} into the checkpoint's files {@code
   * outputs}, after moving its index entries: the positions this set holds in the inputs are
   * dropped, as their rows are deleted in the outputs instead.
   */
  public void addRewrite(Collection<Long> inputs, Collection<Long> outputs) {
    if (this == EMPTY) {
      throw new UnsupportedOperationException("The empty file deletes take no rewrite");
    }
    for (Long input : inputs) {
      RowPositions dropped = positions.remove(input);
      if (dropped != null) {
        count -= dropped.cardinality();
      }
    }
    rewrittenInputs.addAll(inputs);
    rewrittenOutputs.addAll(outputs);
  }

  /** The ids of the files the writers' compactions rewrote, read only. */
  public Set<Long> rewrittenInputs() {
    return Collections.unmodifiableSet(rewrittenInputs);
  }

  /** The ids of the checkpoint's files that replace {@link #rewrittenInputs}, read only. */
  public Set<Long> rewrittenOutputs() {
    return Collections.unmodifiableSet(rewrittenOutputs);
  }

  /**
   * These deletes without the writers' rewrites: no inputs, no outputs, and none of the positions
   * in the outputs. A commit that cannot take a rewrite drops it so; the inputs stay as they are.
   */
  public FileDeletes withoutRewrites() {
    FileDeletes kept = without(Map.of());
    for (Long output : rewrittenOutputs) {
      RowPositions dropped = kept.positions.remove(output);
      if (dropped != null) {
        kept.count -= dropped.cardinality();
      }
    }
    kept.rewrittenInputs.clear();
    kept.rewrittenOutputs.clear();
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
    kept.rewrittenInputs.addAll(rewrittenInputs);
    kept.rewrittenOutputs.addAll(rewrittenOutputs);
    return kept;
  }

  /** Whether no row is deleted and no file rewritten. */
  public boolean isEmpty() {
    return count == 0 && rewrittenInputs.isEmpty();
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
   * deleted keys (-1 when unknown) and each key as length-prefixed UTF-8; then the number of
   * rewritten files and their ids, and the number of files written in their place and their ids.
   */
  public void writeTo(DataOutput out) throws IOException {
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
    writeIds(rewrittenInputs, out);
    writeIds(rewrittenOutputs, out);
  }

  private static void writeIds(Set<Long> ids, DataOutput out) throws IOException {
    out.writeInt(ids.size());
    for (long id : ids) {
      out.writeLong(id);
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

  /**
   * Reads what {@link #writeTo} wrote. Earlier formats ended sooner: {@code withRewrites} false
   * reads one that ended after the keys, {@code withKeys} false one that ended after the positions
   * and leaves the deleted keys unknown.
   */
  public static FileDeletes readFrom(DataInput in, boolean withKeys, boolean withRewrites)
      throws IOException {
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
    if (!withKeys) {
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
    if (withRewrites) {
      readIds(in, deletes.rewrittenInputs);
      readIds(in, deletes.rewrittenOutputs);
    }
    return files == 0 && keys == 0 && deletes.rewrittenInputs.isEmpty() ? EMPTY : deletes;
  }

  private static final int MAX_KEY_BYTES = 1 << 24;

  @Override
  public boolean equals(Object other) {
    return other instanceof FileDeletes that
        && positions.equals(that.positions)
        && Objects.equals(deletedKeys, that.deletedKeys)
        && rewrittenInputs.equals(that.rewrittenInputs)
        && rewrittenOutputs.equals(that.rewrittenOutputs);
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
        + " files"
        + (rewrittenInputs.isEmpty()
            ? ""
            : ", " + rewrittenInputs.size() + " files rewritten into " + rewrittenOutputs.size())
        + "]";
  }
}
