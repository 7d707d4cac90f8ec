/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.commit;

import io.delta.kernel.data.Row;
import io.delta.kernel.utils.CloseableIterable;
import io.delta.kernel.utils.CloseableIterator;
import java.io.IOException;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.UnaryOperator;

/**
 * The actions of a commit that changes files already in the table: the actions planned ahead
 * (removes, re-adds), then Kernel's add actions of the commit's new files, each passed through a
 * function that may change it or leave it out (null). Each iteration starts afresh, as Kernel
 * iterates a commit's actions more than once.
 */
final class CommitActions {

  private CommitActions() {}

  /**
   * @param planned the actions that come first, as they are
   * @param appends Kernel's add actions of the new files
   * @param onIteration run at the start of each iteration, before any action
   * @param eachAppend the action to commit in place of an add action, or null for none
   */
  static CloseableIterable<Row> of(
      List<Row> planned,
      CloseableIterable<Row> appends,
      Runnable onIteration,
      UnaryOperator<Row> eachAppend) {
    return new CloseableIterable<>() {
      @Override
      public CloseableIterator<Row> iterator() {
        onIteration.run();
        CloseableIterator<Row> added = appends.iterator();
        return new CloseableIterator<>() {
          private int returned;
          private Row next;

          @Override
          public boolean hasNext() {
            if (returned < planned.size() || next != null) {
              return true;
            }
            while (next == null && added.hasNext()) {
              next = eachAppend.apply(added.next());
            }
            return next != null;
          }

          @Override
          public Row next() {
            if (returned < planned.size()) {
              return planned.get(returned++);
            }
            if (!hasNext()) {
              throw new NoSuchElementException();
            }
            Row row = next;
            next = null;
            return row;
          }

          @Override
          public void close() throws IOException {
            added.close();
          }
        };
      }

      @Override
      public void close() throws IOException {
        appends.close();
      }
    };
  }
}
