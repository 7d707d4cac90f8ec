/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.checkpoint;

import java.io.IOException;
import java.net.URL;

/**
 * Runs a Parquet write with Hadoop's configuration files ({@code core-default.xml}, {@code
 * core-site.xml} and the other {@code *-default.xml} and {@code *-site.xml} at the class path's
 * root) out of sight.
 *
 * <p>Kernel's Parquet writer gives parquet-java no configuration, so parquet-java makes a fresh
 * Hadoop {@code Configuration} for every file, and its first lookup (the encryption factory) looks
 * every configuration file up on the class path and parses Hadoop's defaults: 150 KB of XML and a
 * search of every jar per Delta checkpoint, a tenth of a job's CPU with 1,000 tables. That
 * configuration serves parquet-java alone, and only for an encryption factory, which no Delta
 * checkpoint has; the file system the checkpoint goes to is the table engine's, configured as
 * before. A {@code Configuration} finds its files through the thread's context class loader at the
 * moment it is made; during the write that loader does not see them.
 */
final class HadoopFilesHidden extends ClassLoader {

  private HadoopFilesHidden(ClassLoader parent) {
    super(parent);
  }

  /** A write that may fail with an {@link IOException}. */
  @FunctionalInterface
  interface Write {
    void run() throws IOException;
  }

  /** Runs {@code write} on this thread with the files hidden, then restores the thread. */
  static void run(Write write) throws IOException {
    Thread thread = Thread.currentThread();
    ClassLoader previous = thread.getContextClassLoader();
    ClassLoader parent = previous != null ? previous : HadoopFilesHidden.class.getClassLoader();
    thread.setContextClassLoader(new HadoopFilesHidden(parent));
    try {
      write.run();
    } finally {
      thread.setContextClassLoader(previous);
    }
  }

  @Override
  public URL getResource(String name) {
    boolean hadoopFile =
        name.indexOf('/') < 0 && (name.endsWith("-default.xml") || name.endsWith("-site.xml"));
    return hadoopFile ? null : super.getResource(name);
  }
}
