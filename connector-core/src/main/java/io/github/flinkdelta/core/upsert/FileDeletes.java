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
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
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

  /** These deletes without the positions {@code stale} names; the keys stay. */
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
    return kept;
  }

  public boolean isEmpty() {
    return count == 0;
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
   * deleted keys (-1 when unknown) and each key as length-prefixed UTF-8.
   */
  public void writeTo(DataOutput out) throws IOException {
    out.writeInt(positions.size());
    for (Map.Entry<Long, RowPositions> entry : positions.entrySet()) {
      out.writeLong(entry.getKey());
      entry.getValue().writeTo(out);
    }
    if (deletedKeys == null) {
      out.writeInt(-1);
      return;
    }
    out.writeInt(deletedKeys.size());
    for (String key : deletedKeys) {
      byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
      out.writeInt(bytes.length);
      out.write(bytes);
    }
  }

  /**
   * Reads what {@link #writeTo} wrote; {@code withKeys} false reads the earlier format, which ended
   * after the positions, and leaves the deleted keys unknown.
   */
  public static FileDeletes readFrom(DataInput in, boolean withKeys) throws IOException {
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
    return files == 0 && keys == 0 ? EMPTY : deletes;
  }

  private static final int MAX_KEY_BYTES = 1 << 24;

  @Override
  public boolean equals(Object other) {
    return other instanceof FileDeletes that
        && positions.equals(that.positions)
        && Objects.equals(deletedKeys, that.deletedKeys);
  }

  @Override
  public int hashCode() {
    return positions.hashCode() * 31 + Objects.hashCode(deletedKeys);
  }

  @Override
  public String toString() {
    return "FileDeletes[" + count + " rows in " + positions.size() + " files]";
  }
}
