package io.github.flinkdelta.core.catalog;

import io.delta.kernel.TableManager;
import java.util.Objects;
import org.apache.hadoop.conf.Configuration;

/** A table known by its path alone: commits are files in its {@code _delta_log}. */
public record PathTableLocator(String path) implements TableLocator {

  public PathTableLocator {
    Objects.requireNonNull(path, "path");
  }

  @Override
  public String name() {
    return path;
  }

  @Override
  public SnapshotSource snapshots(Configuration conf) {
    return engine -> TableManager.loadSnapshot(path).build(engine);
  }
}
