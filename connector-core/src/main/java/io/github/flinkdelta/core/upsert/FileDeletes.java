package io.github.flinkdelta.core.upsert;

import io.github.flinkdelta.core.deletion.RowPositions;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Collection;
import java.util.Collections;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.apache.flink.annotation.Internal;

/**
 * The rows a checkpoint deletes, per data file (by {@link io.github.flinkdelta.core.write.FileIds
 * file id}): positions of rows replaced by a newer value of their key or deleted. Files of the same
 * checkpoint and files already in the table are named alike; the committer tells them apart.
 *
 * <p>A writer fills one while a checkpoint runs and hands it on at the barrier; from then on it is
 * read only, merged into a new one by the aggregator.
 */
@Internal
public final class FileDeletes {

  private static final FileDeletes EMPTY = new FileDeletes();

  private final NavigableMap<Long, RowPositions> positions = new TreeMap<>();
  private long count;

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

  /** Writes the deletes: the number of files, then per file its id and positions. */
  public void writeTo(DataOutput out) throws IOException {
    out.writeInt(positions.size());
    for (Map.Entry<Long, RowPositions> entry : positions.entrySet()) {
      out.writeLong(entry.getKey());
      entry.getValue().writeTo(out);
    }
  }

  /** Reads what {@link #writeTo} wrote. */
  public static FileDeletes readFrom(DataInput in) throws IOException {
    int files = in.readInt();
    if (files < 0) {
      throw new IOException("Corrupt sink state: " + files + " files with deletes");
    }
    if (files == 0) {
      return EMPTY;
    }
    FileDeletes deletes = new FileDeletes();
    for (int i = 0; i < files; i++) {
      long file = in.readLong();
      RowPositions rows = RowPositions.readFrom(in);
      deletes.positions.put(file, rows);
      deletes.count += rows.cardinality();
    }
    return deletes;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof FileDeletes that && positions.equals(that.positions);
  }

  @Override
  public int hashCode() {
    return positions.hashCode();
  }

  @Override
  public String toString() {
    return "FileDeletes[" + count + " rows in " + positions.size() + " files]";
  }
}
