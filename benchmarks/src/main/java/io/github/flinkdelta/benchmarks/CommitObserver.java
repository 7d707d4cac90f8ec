/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * Records the wall-clock moments at which commits become visible, on a thread of its own, so that
 * commit latency is measured from outside the sink and the same way for every contender.
 */
abstract class CommitObserver implements AutoCloseable {

  private final List<Long> times = new ArrayList<>();
  private final List<Visible> visible = new ArrayList<>();
  private final Thread thread;
  private volatile boolean running = true;
  private volatile Exception failure;

  /**
   * One commit becoming visible: the table version it made (-1 where the sink has none) and when.
   */
  record Visible(long version, long atMillis) {}

  CommitObserver(String name) {
    thread = new Thread(this::run, "commit-observer-" + name);
    thread.setDaemon(true);
  }

  /**
   * Watches a directory tree (with inotify on Linux) for files that {@code isCommit} recognises; a
   * file's appearance, by creation or rename, is the commit's visibility.
   */
  static CommitObserver files(Path root, Predicate<Path> isCommit) throws IOException {
    return files(root, isCommit, path -> -1);
  }

  /** As {@link #files(Path, Predicate)}, with the table version each commit file names. */
  static CommitObserver files(
      Path root, Predicate<Path> isCommit, java.util.function.ToLongFunction<Path> version)
      throws IOException {
    return new FileCommitObserver(root, isCommit, version).start();
  }

  /** Polls a version number every {@code pollMillis}; each increment counts as one commit. */
  static CommitObserver versions(LongSupplier version, long pollMillis) {
    return new VersionCommitObserver(version, pollMillis).start();
  }

  /**
   * The moments, in epoch milliseconds, at which commits became visible, in order.
   *
   * @throws IllegalStateException when the observer stopped on a failure: its figures would be
   *     missing commits
   */
  synchronized List<Long> times() {
    failIfFailed();
    return List.copyOf(times);
  }

  /** The commits seen, with their versions, in order; fails as {@link #times()} does. */
  synchronized List<Visible> visible() {
    failIfFailed();
    return List.copyOf(visible);
  }

  private void failIfFailed() {
    if (failure != null) {
      throw new IllegalStateException("The commit observer stopped: " + failure, failure);
    }
  }

  protected abstract void observe() throws Exception;

  protected final boolean running() {
    return running;
  }

  protected final synchronized void committed(long atMillis) {
    committed(-1, atMillis);
  }

  protected final synchronized void committed(long version, long atMillis) {
    visible.add(new Visible(version, atMillis));
    times.add(atMillis);
  }

  final CommitObserver start() {
    thread.start();
    return this;
  }

  private void run() {
    try {
      observe();
    } catch (ClosedWatchServiceException | InterruptedException e) {
      // closed
    } catch (Exception e) {
      // Kept for times() and visible(), which fail the run: a dead observer would report only the
      // commits it saw before it died.
      failure = e;
    }
  }

  @Override
  public void close() throws Exception {
    running = false;
    thread.interrupt();
    thread.join(5_000);
  }

  private static final class FileCommitObserver extends CommitObserver {
    private final WatchService watcher;
    private final Predicate<Path> isCommit;
    private final java.util.function.ToLongFunction<Path> version;

    FileCommitObserver(
        Path root, Predicate<Path> isCommit, java.util.function.ToLongFunction<Path> version)
        throws IOException {
      super(root.getFileName().toString());
      this.watcher = FileSystems.getDefault().newWatchService();
      this.isCommit = isCommit;
      this.version = version;
      try (Stream<Path> dirs = Files.walk(root)) {
        dirs.filter(Files::isDirectory).forEach(this::register);
      }
    }

    @Override
    protected void observe() throws InterruptedException {
      while (running()) {
        WatchKey key = watcher.poll(100, TimeUnit.MILLISECONDS);
        if (key == null) {
          continue;
        }
        long now = System.currentTimeMillis();
        Path dir = (Path) key.watchable();
        for (WatchEvent<?> event : key.pollEvents()) {
          if (event.kind() == StandardWatchEventKinds.OVERFLOW) {
            throw new IllegalStateException("Missed file events in " + dir);
          }
          Path path = dir.resolve((Path) event.context());
          if (Files.isDirectory(path)) {
            register(path);
          } else if (isCommit.test(path)) {
            committed(version.applyAsLong(path), now);
          }
        }
        key.reset();
      }
    }

    private void register(Path dir) {
      try {
        dir.register(watcher, StandardWatchEventKinds.ENTRY_CREATE);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public void close() throws Exception {
      super.close();
      watcher.close();
    }
  }

  private static final class VersionCommitObserver extends CommitObserver {
    private final LongSupplier version;
    private final long pollMillis;

    VersionCommitObserver(LongSupplier version, long pollMillis) {
      super("versions");
      this.version = version;
      this.pollMillis = pollMillis;
    }

    @Override
    protected void observe() throws InterruptedException {
      long seen = version.getAsLong();
      while (running()) {
        long latest = version.getAsLong();
        long now = System.currentTimeMillis();
        for (; seen < latest; seen++) {
          committed(seen + 1, now);
        }
        Thread.sleep(pollMillis);
      }
    }
  }
}
