/*
 * Copyright 2026 the flink-delta authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
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
