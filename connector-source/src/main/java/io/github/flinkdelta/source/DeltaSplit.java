/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.source;

import io.github.flinkdelta.core.deletion.DeletionVectorDescriptor;
import io.github.flinkdelta.core.read.ReadFile;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.SourceSplit;

/**
 * Rows of one data file of one version to read, and how far a reader got: the position (row index
 * in the file) of the next row to read. Rows before it were emitted before the checkpoint that
 * holds this split, so a restored reader goes on from there and emits each row once.
 *
 * @param file the file, with the deletion vector the version gave it (for {@link Rows#REMOVED}, the
 *     one it had when removed)
 * @param rows which of the file's rows the split emits, and as what
 * @param before for {@link Rows#NEWLY_DELETED}, the file's deletion vector before the version, or
 *     null when it had none
 * @param position the position of the next row to read
 */
@Internal
public record DeltaSplit(ReadFile file, Rows rows, DeletionVectorDescriptor before, long position)
    implements SourceSplit {

  /** Which rows of its file a split emits. */
  public enum Rows {
    /** The file's live rows, as inserts: a file the version added. */
    INSERTED,
    /** The file's live rows, as deletes: a file the version removed. */
    REMOVED,
    /** The rows the file's new deletion vector deletes and its old one did not, as deletes. */
    NEWLY_DELETED
  }

  public DeltaSplit {
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(rows, "rows");
    if (position < 0) {
      throw new IllegalArgumentException("negative split position " + position);
    }
  }

  /** The split of a file's live rows, as inserts. */
  public static DeltaSplit of(ReadFile file) {
    return new DeltaSplit(file, Rows.INSERTED, null, 0);
  }

  /** The split of a removed file's live rows, as deletes. */
  static DeltaSplit removed(ReadFile file) {
    return new DeltaSplit(file, Rows.REMOVED, null, 0);
  }

  /** The split of the rows {@code file}'s deletion vector deletes and {@code before} did not. */
  static DeltaSplit newlyDeleted(ReadFile file, DeletionVectorDescriptor before) {
    return new DeltaSplit(file, Rows.NEWLY_DELETED, before, 0);
  }

  /** This split, to be read from {@code next} on. */
  public DeltaSplit at(long next) {
    return new DeltaSplit(file, rows, before, next);
  }

  /** Whether the split's rows are emitted as deletes. */
  public boolean deletes() {
    return rows != Rows.INSERTED;
  }

  /** The version, the file and what is read of it: a version adds or removes a file once. */
  @Override
  public String splitId() {
    return file.version() + ":" + rows.name().charAt(0) + ":" + file.path();
  }
}
