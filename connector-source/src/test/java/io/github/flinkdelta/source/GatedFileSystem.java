/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.source;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;

/**
 * The local file system under the scheme {@code gated://}, whose opens of data files wait while a
 * gate is closed: storage that does not answer, for as long as a test wants. Installed with {@code
 * fs.gated.impl}; the gate is static because Hadoop makes the instances.
 */
public final class GatedFileSystem extends RawLocalFileSystem {

  static final String SCHEME = "gated";

  private static final AtomicReference<CountDownLatch> GATE =
      new AtomicReference<>(new CountDownLatch(0));
  private static final AtomicInteger WAITING = new AtomicInteger();

  /** Data-file opens from now on wait until {@link #release()}. */
  static void hold() {
    GATE.set(new CountDownLatch(1));
  }

  /** Lets every waiting and later open through. */
  static void release() {
    GATE.get().countDown();
  }

  /** Opens waiting at the gate now. */
  static int waiting() {
    return WAITING.get();
  }

  @Override
  public URI getUri() {
    return URI.create(SCHEME + ":///");
  }

  @Override
  public String getScheme() {
    return SCHEME;
  }

  @Override
  public FSDataInputStream open(Path path, int bufferSize) throws IOException {
    if (path.getName().endsWith(".parquet")) {
      WAITING.incrementAndGet();
      try {
        GATE.get().await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted at the gate of " + path);
      } finally {
        WAITING.decrementAndGet();
      }
    }
    return super.open(path, bufferSize);
  }
}
