/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.commit;

import io.delta.kernel.utils.CloseableIterator;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.function.Predicate;

/** An iterator that shows its next element before handing it out, and hands out runs of them. */
final class PeekingIterator<T> implements Iterator<T> {

  private final Iterator<T> source;
  private T peeked;
  private boolean hasPeeked;

  PeekingIterator(Iterator<T> source) {
    this.source = source;
  }

  /** The element {@link #next()} returns, without taking it. */
  T peek() {
    if (!hasPeeked) {
      peeked = source.next();
      hasPeeked = true;
    }
    return peeked;
  }

  @Override
  public boolean hasNext() {
    return hasPeeked || source.hasNext();
  }

  @Override
  public T next() {
    if (!hasPeeked) {
      return source.next();
    }
    T next = peeked;
    peeked = null;
    hasPeeked = false;
    return next;
  }

  /** The next elements as long as they match; the first that does not stays here. */
  CloseableIterator<T> takeWhile(Predicate<? super T> matches) {
    return new CloseableIterator<>() {
      @Override
      public boolean hasNext() {
        return PeekingIterator.this.hasNext() && matches.test(peek());
      }

      @Override
      public T next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        return PeekingIterator.this.next();
      }

      @Override
      public void close() {}
    };
  }
}
