/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.util.TemporaryClassLoaderContext;

/**
 * Runs storage work under the connector's class loader rather than the job's user-code class
 * loader. File systems such as S3A are cached JVM-wide (by Hadoop, and per credential scope by
 * Unity Catalog's file system) and start thread pools whose threads inherit the context class
 * loader of whichever thread first submits work. Were that the user-code class loader, it would be
 * closed when the job ends or fails over, and the next job on the TaskManager to reach the cached
 * file system would fail with "Trying to access closed classloader". With the connector in Flink's
 * {@code lib/}, its class loader lives as long as the TaskManager; with the connector in the job
 * jar, the caches themselves belong to the job's class loader and go with it.
 */
@Internal
public final class ConnectorClassLoader {

  private static final ClassLoader LOADER = ConnectorClassLoader.class.getClassLoader();

  private ConnectorClassLoader() {}

  /** Makes the connector's class loader the context class loader until the result is closed. */
  public static TemporaryClassLoaderContext enter() {
    return TemporaryClassLoaderContext.of(LOADER);
  }
}
