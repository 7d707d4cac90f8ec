/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.source;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Queue;

/**
 * The splits the enumerator planned and no reader has, in the order they are assigned: as planned,
 * or, for a read that takes watermarks, by their files' least timestamps. Planning threads add to
 * it while the coordinator takes from it, so every method holds its lock.
 */
final class PendingSplits {

  /** Oldest least timestamp first; files of one timestamp by version, then path. */
  private static final Comparator<DeltaSplit> BY_TIMESTAMP =
      Comparator.<DeltaSplit>comparingLong(split -> split.file().minTimestamp())
          .thenComparingLong(split -> split.file().version())
          .thenComparing(split -> split.file().path());

  /** The splits in plan order, or null when they are ordered by timestamp. */
  private final ArrayDeque<DeltaSplit> planOrder;

  /** The splits by timestamp, or null when they are in plan order. */
  private final PriorityQueue<DeltaSplit> timeOrder;

  private final Queue<DeltaSplit> splits;

  private PendingSplits(ArrayDeque<DeltaSplit> planOrder, PriorityQueue<DeltaSplit> timeOrder) {
    this.planOrder = planOrder;
    this.timeOrder = timeOrder;
    this.splits = planOrder != null ? planOrder : timeOrder;
  }

  /** Splits in the order they are added; splits given back go first. */
  static PendingSplits inPlanOrder(Collection<DeltaSplit> restored) {
    return new PendingSplits(new ArrayDeque<>(restored), null);
  }

  /** Splits by their files' least timestamps, oldest first, however they are added. */
  static PendingSplits byTimestamp(Collection<DeltaSplit> restored) {
    PriorityQueue<DeltaSplit> queue =
        new PriorityQueue<>(Math.max(1, restored.size()), BY_TIMESTAMP);
    queue.addAll(restored);
    return new PendingSplits(null, queue);
  }

  synchronized void addAll(List<DeltaSplit> planned) {
    splits.addAll(planned);
  }

  /** Splits a failed reader had: before all others, unless the order is by timestamp. */
  synchronized void addBack(List<DeltaSplit> returned) {
    if (timeOrder != null) {
      timeOrder.addAll(returned);
      return;
    }
    for (int i = returned.size() - 1; i >= 0; i--) {
      planOrder.addFirst(returned.get(i));
    }
  }

  /** The next split to assign, or null when none waits. */
  synchronized DeltaSplit poll() {
    return splits.poll();
  }

  synchronized int size() {
    return splits.size();
  }

  /** The splits in the order they would be assigned. */
  synchronized List<DeltaSplit> inOrder() {
    List<DeltaSplit> list = new ArrayList<>(splits);
    if (timeOrder != null) {
      list.sort(BY_TIMESTAMP);
    }
    return list;
  }
}
