/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.internal;

import io.github.flinkdelta.core.upsert.FileDeletes;
import io.github.flinkdelta.core.write.DataFiles;
import java.io.EOFException;
import java.io.IOException;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.memory.DataInputDeserializer;

/**
 * The pieces the state serializers share. Data files are held as {@link DataFiles} keeps them in
 * memory, deflated in chunks with their counts ({@link DataFiles#writeTo}), so neither writing nor
 * reading state decodes a file; strings are length-prefixed UTF-8, with no 64 KB limit.
 */
@Internal
public final class DataFileSerialization {

  /**
   * The state version this connector writes: version 5, the index version of an upsert checkpoint's
   * writers and the layouts of their compactions.
   */
  public static final int VERSION = 7;

  /**
   * The version with the ids of the files the writers of an upsert sink compacted, committed with
   * the checkpoint; still read.
   */
  static final int VERSION_WITH_REWRITTEN_IDS = 6;

  /**
   * The version with the keys of the rows an upsert deleted outright, before rewrites; still read.
   */
  static final int VERSION_WITHOUT_REWRITES = 5;

  /** The first version with the deletes of upserts, without their keys; still read. */
  static final int VERSION_WITHOUT_DELETED_KEYS = 4;

  /** The released version before upserts, which had no deletes; still read. */
  static final int VERSION_WITHOUT_DELETES = 3;

  private DataFileSerialization() {}

  /**
   * Fails unless {@code version} is one this connector reads. Versions 1 and 2 were never released.
   */
  public static void checkVersion(String state, int version) throws IOException {
    if (version < VERSION_WITHOUT_DELETES || version > VERSION) {
      throw new IOException(
          String.format(
              "Cannot read %s state version %d; this connector reads versions %d to %d. Restore"
                  + " with the connector version that wrote it.",
              state, version, VERSION_WITHOUT_DELETES, VERSION));
    }
  }

  /** The deletes that follow the files in state of {@code version}. */
  public static FileDeletes readDeletes(int version, DataInputDeserializer in) throws IOException {
    if (version == VERSION_WITHOUT_DELETES) {
      return FileDeletes.empty();
    }
    try {
      FileDeletes.Format format =
          switch (version) {
            case VERSION_WITHOUT_DELETED_KEYS -> FileDeletes.Format.POSITIONS;
            case VERSION_WITHOUT_REWRITES -> FileDeletes.Format.DELETED_KEYS;
            case VERSION_WITH_REWRITTEN_IDS -> FileDeletes.Format.REWRITTEN_IDS;
            default -> FileDeletes.Format.INDEX_VERSION;
          };
      return FileDeletes.readFrom(in, format);
    } catch (EOFException | IllegalArgumentException e) {
      throw new IOException("Corrupt sink state: the deletes end early or do not decode", e);
    }
  }

  public static DataFiles readFiles(DataInputDeserializer in) throws IOException {
    try {
      return DataFiles.readFrom(in);
    } catch (EOFException e) {
      throw new IOException("Corrupt sink state: the data files end early", e);
    }
  }
}
