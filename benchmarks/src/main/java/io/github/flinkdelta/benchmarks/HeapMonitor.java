/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * The heap in use right after each garbage collection: the live data the JVM holds, free of the
 * garbage that the collector had not reached yet. Its peak is what a heap must at least hold.
 */
final class HeapMonitor implements AutoCloseable {

  private final Set<String> heapPools =
      ManagementFactory.getMemoryPoolMXBeans().stream()
          .filter(pool -> pool.getType() == MemoryType.HEAP)
          .map(pool -> pool.getName())
          .collect(Collectors.toSet());
  private final List<long[]> samples = new ArrayList<>();
  private final NotificationListener listener = (notification, handback) -> record(notification);
  private final List<NotificationEmitter> emitters = new ArrayList<>();
  private long peak;

  HeapMonitor() {
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      if (gc instanceof NotificationEmitter emitter) {
        emitter.addNotificationListener(listener, null, null);
        emitters.add(emitter);
      }
    }
  }

  /** The largest heap in use after a collection, in bytes. */
  synchronized long peakAfterGc() {
    return peak;
  }

  /** (epoch millis, heap bytes after collection) for every collection so far. */
  synchronized List<long[]> samples() {
    return List.copyOf(samples);
  }

  private void record(javax.management.Notification notification) {
    if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(
        notification.getType())) {
      return;
    }
    GarbageCollectionNotificationInfo info =
        GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData());
    long used = 0;
    for (Map.Entry<String, MemoryUsage> pool :
        info.getGcInfo().getMemoryUsageAfterGc().entrySet()) {
      if (heapPools.contains(pool.getKey())) {
        used += pool.getValue().getUsed();
      }
    }
    synchronized (this) {
      peak = Math.max(peak, used);
      samples.add(new long[] {System.currentTimeMillis(), used});
    }
  }

  @Override
  public void close() throws Exception {
    for (NotificationEmitter emitter : emitters) {
      emitter.removeNotificationListener(listener);
    }
  }
}
