/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.commit;

import io.delta.kernel.DataWriteContext;
import io.delta.kernel.Snapshot;
import io.delta.kernel.Transaction;
import io.delta.kernel.data.Row;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.utils.CloseableIterable;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.DataFileStatus;
import io.github.flinkdelta.core.log.SerializedStatistics;
import io.github.flinkdelta.core.write.DataFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;

/** The Delta add actions that append data files to a table in one commit. */
final class AppendActions {

  private AppendActions() {}

  /**
   * The add actions of {@code files}, made as Kernel reads them: a commit of many files never holds
   * their decoded descriptions or action rows all at once. Consecutive files of one partition share
   * one call to Kernel, and each partition's write context comes from {@code contexts}. Each
   * iteration starts afresh, as a retried commit (or Kernel's row tracking) iterates again.
   */
  static CloseableIterable<Row> of(
      Engine engine,
      Row state,
      Snapshot snapshot,
      WriteContexts contexts,
      Iterable<DataFile> files) {
    contexts.validFor(snapshot);
    String root = snapshot.getPath();
    String prefix = root.endsWith("/") ? root : root + "/";
    return new CloseableIterable<>() {
      @Override
      public CloseableIterator<Row> iterator() {
        Iterator<DataFile> source = files.iterator();
        PeekingIterator<DataFile> remaining = new PeekingIterator<>(source);
        return new CloseableIterator<>() {
          private CloseableIterator<Row> group;

          @Override
          public boolean hasNext() {
            while ((group == null || !group.hasNext()) && remaining.hasNext()) {
              closeGroup();
              Map<String, String> partition = remaining.peek().partitionValues();
              DataWriteContext context = contexts.of(engine, state, partition);
              CloseableIterator<DataFileStatus> statuses =
                  remaining
                      .takeWhile(file -> file.partitionValues().equals(partition))
                      .map(
                          file ->
                              new DataFileStatus(
                                  prefix + file.path(),
                                  file.sizeBytes(),
                                  System.currentTimeMillis(),
                                  Optional.of(
                                      new SerializedStatistics(
                                          file.numRecords(), file.statsJson()))));
              group = Transaction.generateAppendActions(engine, state, statuses, context);
            }
            return group != null && group.hasNext();
          }

          @Override
          public Row next() {
            if (!hasNext()) {
              throw new NoSuchElementException();
            }
            return group.next();
          }

          /**
           * Also when Kernel stops early (a failed commit): frees what decoding the files holds.
           */
          @Override
          public void close() {
            try {
              closeGroup();
            } finally {
              if (source instanceof AutoCloseable closeable) {
                try {
                  closeable.close();
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              }
            }
          }

          private void closeGroup() {
            if (group != null) {
              try {
                group.close();
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
              group = null;
            }
          }
        };
      }

      @Override
      public void close() {}
    };
  }
}
