package io.github.flinkdelta.core.table;

import io.delta.kernel.DataWriteContext;
import io.delta.kernel.Snapshot;
import io.delta.kernel.Transaction;
import io.delta.kernel.data.Row;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.CloseableIterable;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.DataFileStatus;
import io.github.flinkdelta.core.parquet.DataFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;

/** The Delta add actions that append data files to a table in one commit. */
final class AppendActions {

  private static final int MAX_CACHED_CONTEXTS = 1_024;

  private AppendActions() {}

  /**
   * The add actions of {@code files}, made as Kernel reads them: a commit of many files never holds
   * their decoded descriptions, parsed statistics or action rows all at once. Consecutive files of
   * one partition share one call to Kernel. Each iteration starts afresh, as a retried commit (or
   * Kernel's row tracking) iterates again.
   */
  static CloseableIterable<Row> of(
      Engine engine, Row state, Snapshot snapshot, Iterable<DataFile> files) {
    StructType logical = snapshot.getSchema();
    StructType physical = TableLayouts.physicalSchema(logical);
    String root = snapshot.getPath();
    String prefix = root.endsWith("/") ? root : root + "/";
    // Kernel parses the table schema for every write context. The files of one partition come in
    // a run per writer subtask (and Kernel's row tracking iterates twice), so recent contexts are
    // kept, a bounded number of them.
    Map<Map<String, String>, DataWriteContext> contexts =
        new LinkedHashMap<>(16, 0.75f, true) {
          @Override
          protected boolean removeEldestEntry(
              Map.Entry<Map<String, String>, DataWriteContext> eldest) {
            return size() > MAX_CACHED_CONTEXTS;
          }
        };
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
              DataWriteContext context =
                  contexts.computeIfAbsent(
                      partition,
                      p ->
                          Transaction.getWriteContext(
                              engine, state, PartitionLiterals.of(p, logical)));
              CloseableIterator<DataFileStatus> statuses =
                  remaining
                      .takeWhile(file -> file.partitionValues().equals(partition))
                      .map(
                          file ->
                              new DataFileStatus(
                                  prefix + file.path(),
                                  file.sizeBytes(),
                                  System.currentTimeMillis(),
                                  Optional.of(StatisticsJson.parse(file.statsJson(), physical))));
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
