package io.github.flinkdelta.core.table;

import io.delta.kernel.utils.CloseableIterator;
import java.util.Iterator;
import java.util.List;

/** Adapts an in-memory list to Kernel's closeable iterator. */
final class CloseableIteratorOf {

  private CloseableIteratorOf() {}

  static <T> CloseableIterator<T> list(List<T> items) {
    Iterator<T> it = items.iterator();
    return new CloseableIterator<>() {
      @Override
      public boolean hasNext() {
        return it.hasNext();
      }

      @Override
      public T next() {
        return it.next();
      }

      @Override
      public void close() {}
    };
  }
}
