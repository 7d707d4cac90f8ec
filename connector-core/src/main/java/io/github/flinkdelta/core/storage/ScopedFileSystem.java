/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.storage;

import java.io.IOException;
import java.net.URI;
import org.apache.flink.annotation.Internal;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FilterFileSystem;

/**
 * The file system of an object-store scheme as a table's configuration sees it: a thin view of a
 * file system shared only by configurations of the same storage options ({@link StorageScopes}).
 *
 * <p>Hadoop caches file systems by scheme, authority and user, not by configuration, so two tables
 * of one task manager on the same bucket with different endpoints or keys would otherwise share
 * whichever file system was created first. {@link HadoopConfigurations} registers this class for
 * those schemes with Hadoop's cache off; each lookup then makes one of these views, which costs an
 * object, and the real file system behind it comes from the scope's own cache. Closing a view does
 * not close the shared file system: the last {@link StorageScopes#lease lease} of the scope does.
 */
@Internal
public final class ScopedFileSystem extends FilterFileSystem {

  @Override
  public void initialize(URI name, Configuration conf) throws IOException {
    this.fs = StorageScopes.fileSystem(name, conf);
    this.statistics = getStatistics(name.getScheme(), getClass());
    setConf(conf);
  }

  @Override
  public URI getUri() {
    return fs.getUri();
  }

  @Override
  public String getScheme() {
    return fs.getScheme();
  }

  /** The shared file system stays open for the other views of its scope. */
  @Override
  public void close() {}
}
