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
