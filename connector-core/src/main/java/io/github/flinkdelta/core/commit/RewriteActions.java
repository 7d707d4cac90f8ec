/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.commit;

import io.delta.kernel.data.Row;
import io.delta.kernel.utils.CloseableIterable;
import io.delta.kernel.utils.CloseableIterator;
import io.github.flinkdelta.core.kernel.AddAction;
import io.github.flinkdelta.core.log.LiveFiles.LiveFile;
import java.io.IOException;
import java.net.URI;
import java.util.Iterator;
import java.util.List;

/**
 * The actions of a commit that rewrites files without changing the table's rows (compaction): a
 * {@code remove} of every rewritten file and an {@code add} of every new one, all with {@code
 * dataChange = false}, so that streaming readers of the table's changes skip the version.
 *
 * <p>Kernel 4.4 makes add actions with {@code dataChange = true} only, and remove actions not at
 * all; both are made here through the Kernel adapter ({@link AddAction}), as {@link UpsertActions}
 * does.
 */
final class RewriteActions {

  private RewriteActions() {}

  /**
   * The removes of {@code removed} and, from Kernel's append actions {@code adds}, the same adds
   * with {@code dataChange = false}. Each iteration starts afresh, as Kernel iterates more than
   * once.
   */
  static CloseableIterable<Row> of(List<LiveFile> removed, CloseableIterable<Row> adds, URI root) {
    long now = System.currentTimeMillis();
    List<Row> removes = removed.stream().map(file -> file.removeAction(false, now)).toList();
    return new CloseableIterable<>() {
      @Override
      public CloseableIterator<Row> iterator() {
        Iterator<Row> removing = removes.iterator();
        CloseableIterator<Row> adding = adds.iterator();
        return new CloseableIterator<>() {
          @Override
          public boolean hasNext() {
            return removing.hasNext() || adding.hasNext();
          }

          @Override
          public Row next() {
            if (removing.hasNext()) {
              return removing.next();
            }
            Row action = adding.next();
            AddAction add = AddAction.inAction(action);
            if (add == null) {
              return action;
            }
            LiveFile file = LiveFile.of(add, root);
            return AddAction.addAction(file.addRow(false));
          }

          @Override
          public void close() throws IOException {
            adding.close();
          }
        };
      }

      @Override
      public void close() throws IOException {
        adds.close();
      }
    };
  }
}
