package io.github.flinkdelta.core.catalog;

import java.io.Serializable;
import org.apache.hadoop.conf.Configuration;

/**
 * A serializable description of a table that every operator of a sink can open: its name for
 * messages, its storage location, and the source of its snapshots.
 */
public interface TableLocator extends Serializable {

  /** The table as messages name it: a path, or a catalog name. */
  String name();

  /** The table's root location, under which data files are written. */
  String path();

  /**
   * The Hadoop configuration through which the table's files are read and written: {@code conf}
   * itself, or {@code conf} with the storage credentials a catalog vends for the table.
   */
  default Configuration storageConf(Configuration conf) {
    return conf;
  }

  /** Opens the live source of the table's snapshots. */
  SnapshotSource snapshots(Configuration conf);
}
