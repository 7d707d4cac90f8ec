/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.upsert;

import io.github.flinkdelta.core.write.RowLocation;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.annotation.Internal;

/**
 * What the versions of a table after the one an upsert writer's key index has taken in did to the
 * rows of the writer's keys, version after version: for a version of another writer, each live row
 * of one of those keys that it deleted or whose file it removed, and each row it added; for a
 * version of the sink itself, only the transaction it records (the index holds its rows already).
 *
 * <p>Rows are kept in primitive arrays beside their keys, about 30 bytes a row and the key. Filled
 * by the thread that reads the log, then handed to the writer's task thread, which applies them
 * ({@link IndexCatchUp}).
 */
@Internal
public final class KeyChanges {

  /** What happened to a row. */
  public enum Change {
    /** Another writer deleted the row, or removed its file. */
    REMOVED,
    /** Another writer added the row in a rewrite ({@code dataChange = false}): it moved there. */
    MOVED_IN,
    /** Another writer added the row as a change of data: a row of its own. */
    WRITTEN
  }

  /**
   * One version of the range.
   *
   * @param version the table version
   * @param checkpoint the transaction version the sink's app id commits in it, or -1
   * @param rewriteCheckpoint the transaction version the sink's compactions commit in it, or -1
   * @param first the index of the version's first row change
   * @param end the index after its last row change
   */
  public record Version(long version, long checkpoint, long rewriteCheckpoint, int first, int end) {

    /** Whether another writer made the version. */
    public boolean isForeign() {
      return checkpoint < 0 && rewriteCheckpoint < 0;
    }
  }

  /** Receives the row changes of a version. */
  @FunctionalInterface
  public interface RowChangeConsumer {
    void accept(String key, Change change, RowLocation row);
  }

  private static final Change[] CHANGES = Change.values();

  private final long fromVersion;
  private final long toVersion;
  private final List<Version> versions = new ArrayList<>();
  private String[] keys = new String[64];
  private byte[] changes = new byte[64];
  private long[] fileIds = new long[64];
  private long[] positions = new long[64];
  private int size;
  private int versionStart = -1;

  /**
   * An empty range of changes after version {@code fromVersion}, through {@code toVersion}, to be
   * filled a version at a time.
   */
  public KeyChanges(long fromVersion, long toVersion) {
    this.fromVersion = fromVersion;
    this.toVersion = toVersion;
  }

  /** The version the index had taken in before these changes. */
  public long fromVersion() {
    return fromVersion;
  }

  /** The last version of the range: the index has taken it in once these changes are applied. */
  public long toVersion() {
    return toVersion;
  }

  /** The versions, in order. */
  public List<Version> versions() {
    return List.copyOf(versions);
  }

  /** The number of row changes. */
  public int size() {
    return size;
  }

  /** Starts the next version's row changes. */
  public void startVersion() {
    versionStart = size;
  }

  /** Adds a row change to the version started last. */
  public void add(String key, Change change, long fileId, long position) {
    if (versionStart < 0) {
      throw new IllegalStateException("No version started");
    }
    if (size == keys.length) {
      int grown = size * 2;
      keys = Arrays.copyOf(keys, grown);
      changes = Arrays.copyOf(changes, grown);
      fileIds = Arrays.copyOf(fileIds, grown);
      positions = Arrays.copyOf(positions, grown);
    }
    keys[size] = key;
    changes[size] = (byte) change.ordinal();
    fileIds[size] = fileId;
    positions[size] = position;
    size++;
  }

  /**
   * Ends the version started last.
   *
   * @param checkpoint the transaction version of the sink's app id in it, or -1
   * @param rewriteCheckpoint the transaction version of the sink's compactions in it, or -1
   */
  public void endVersion(long version, long checkpoint, long rewriteCheckpoint) {
    if (versionStart < 0) {
      throw new IllegalStateException("No version started");
    }
    if (!versions.isEmpty() && versions.get(versions.size() - 1).version() >= version) {
      throw new IllegalArgumentException("Versions out of order: " + version);
    }
    versions.add(new Version(version, checkpoint, rewriteCheckpoint, versionStart, size));
    versionStart = -1;
  }

  /** Hands the row changes of {@code version} to {@code consumer}, in the order they were added. */
  public void forEach(Version version, RowChangeConsumer consumer) {
    for (int i = version.first(); i < version.end(); i++) {
      consumer.accept(keys[i], CHANGES[changes[i]], new RowLocation(fileIds[i], positions[i]));
    }
  }
}
