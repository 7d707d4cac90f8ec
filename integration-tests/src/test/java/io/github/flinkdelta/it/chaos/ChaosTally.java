/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.chaos;

import io.github.flinkdelta.it.chaos.ChaosSchedule.Fault;
import java.util.EnumMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Faults per kind: how many the injector armed, and how many fired, that is hit the job at the
 * point of injection (a writer failure thrown, an S3 burst that faulted a request, a catalog fault
 * that answered a call, a TaskManager terminated). A fault replaced or cleared before it hit
 * anything was armed but did not fire.
 */
final class ChaosTally {

  private final Map<Fault, Integer> armed = new EnumMap<>(Fault.class);
  private final Map<Fault, Integer> fired = new EnumMap<>(Fault.class);

  void arm(Fault fault) {
    armed.merge(fault, 1, Integer::sum);
  }

  void fire(Fault fault, int count) {
    fired.merge(fault, count, Integer::sum);
  }

  int armed(Fault fault) {
    return armed.getOrDefault(fault, 0);
  }

  int fired(Fault fault) {
    return fired.getOrDefault(fault, 0);
  }

  int totalFired() {
    return fired.values().stream().mapToInt(Integer::intValue).sum();
  }

  void add(ChaosTally other) {
    other.armed.forEach((fault, n) -> armed.merge(fault, n, Integer::sum));
    other.fired.forEach((fault, n) -> fired.merge(fault, n, Integer::sum));
  }

  /** The kinds that never fired. */
  Set<Fault> neverFired() {
    return Stream.of(Fault.values()).filter(f -> fired(f) == 0).collect(Collectors.toSet());
  }

  /** Each kind as {@code KIND fired/armed}, e.g. {@code S3_SLOW_DOWN 1/2}. */
  @Override
  public String toString() {
    return Stream.of(Fault.values())
        .map(f -> f + " " + fired(f) + "/" + armed(f))
        .collect(Collectors.joining(", ", "fired/armed {", "}"));
  }
}
