/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.catalog;

import io.github.flinkdelta.core.storage.StorageProbe;
import java.io.Serializable;
import java.util.Optional;
import org.apache.flink.annotation.Internal;
import org.apache.hadoop.conf.Configuration;

/**
 * A serializable description of an existing table that every operator of a sink can open: its name
 * for messages, its storage location, and the source of its snapshots.
 */
@Internal
public interface TableLocator extends TableReference, Serializable {

  /** The table's root location, under which data files are written. */
  String path();

  /**
   * The Hadoop configuration through which the table's files are read and written: {@code conf}
   * itself, or {@code conf} with the storage credentials a catalog vends for the table.
   */
  default Configuration storageConf(Configuration conf) {
    return conf;
  }

  /**
   * The Hadoop configuration through which the table's files are only read: as {@link
   * #storageConf}, but with read-only credentials where a catalog vends them, so that a principal
   * allowed to read the table and not to modify it can read it.
   */
  default Configuration readConf(Configuration conf) {
    return storageConf(conf);
  }

  /** Opens the live source of the table's snapshots. */
  SnapshotSource snapshots(Configuration conf);

  /**
   * Opens the table's versions for reading; by default from the files of its {@code _delta_log},
   * which a catalog that ratifies commits replaces with its own.
   */
  default TableHistory history(Configuration conf) {
    return new PathTableHistory(path());
  }

  /**
   * Fails unless this process may write the table: by default, it creates and deletes a file under
   * the table's root through {@code storageConf}.
   *
   * @throws IllegalStateException saying what is not allowed and what to check
   */
  default void checkWritable(Configuration storageConf) {
    StorageProbe.checkWritable(path(), storageConf);
  }

  @Override
  default String description() {
    return "Delta table " + name();
  }

  /** This table: a located table was found already. */
  @Override
  default Optional<TableLocator> find(Configuration conf) {
    return Optional.of(this);
  }

  /** This table: a located table exists already. */
  @Override
  default TableLocator create(Configuration conf, TableDefinition definition) {
    return this;
  }
}
