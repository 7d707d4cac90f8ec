/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink;

import java.util.HashMap;
import java.util.Map;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;

/** A metric group that keeps the gauges registered in it and its subgroups, by name. */
public final class RecordedMetrics extends UnregisteredMetricsGroup {

  private final Map<String, Gauge<?>> gauges = new HashMap<>();

  @Override
  public <T, G extends Gauge<T>> G gauge(String name, G gauge) {
    gauges.put(name, gauge);
    return gauge;
  }

  @Override
  public MetricGroup addGroup(String name) {
    return this;
  }

  @Override
  public MetricGroup addGroup(String key, String value) {
    return this;
  }

  public long gauge(String name) {
    Gauge<?> gauge = gauges.get(name);
    if (gauge == null) {
      throw new AssertionError("no gauge " + name + " among " + gauges.keySet());
    }
    return ((Number) gauge.getValue()).longValue();
  }
}
