/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.storage;

import java.util.Map;
import org.apache.flink.annotation.Internal;
import org.apache.hadoop.conf.Configuration;

/**
 * Builds the Hadoop configuration the connector reads and writes a table with: the user's storage
 * options, over two defaults for the local file system that keep Hadoop from forking a shell
 * process per file (see {@link ForklessLocalFileSystem}) and per commit. Users' own settings of the
 * same keys win.
 *
 * <p>The configuration loads classes through the connector's own class loader, not the thread's
 * context class loader. In a Flink task the latter is the job's user-code class loader, which is
 * closed when the job ends or fails over, while file systems cached JVM-wide (such as those of
 * Unity Catalog's credential-scoped file system) keep the configuration they were created with.
 *
 * <p>Object stores' file systems are shared only by configurations of equal options ({@link
 * StorageScopes}), not JVM-wide per bucket as Hadoop's cache would: two tables on one bucket with
 * different endpoints or keys each get their own.
 */
@Internal
public final class HadoopConfigurations {

  static final String LOCAL_FS_IMPL = "fs.file.impl";
  static final String LOCAL_LOG_STORE = "io.delta.kernel.logStore.file.impl";

  private HadoopConfigurations() {}

  /** A configuration of {@code options} over the connector's defaults. */
  public static Configuration of(Map<String, String> options) {
    Configuration conf = new Configuration();
    conf.setClassLoader(HadoopConfigurations.class.getClassLoader());
    conf.set(LOCAL_FS_IMPL, ForklessLocalFileSystem.class.getName());
    // Delta's default HDFSLogStore renames through Hadoop's FileContext, which forks a
    // `readlink` process per commit on the local file system, and neither it nor LocalLogStore
    // is put-if-absent across writers.
    conf.set(LOCAL_LOG_STORE, AtomicLocalLogStore.class.getName());
    options.forEach(conf::set);
    StorageScopes.scope(conf, options);
    return conf;
  }
}
