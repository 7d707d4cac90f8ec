/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks;

/** The table layouts every contender writes. */
public enum Scenario {
  /** No partition column: each writer subtask has one open file. */
  UNPARTITIONED("unpartitioned"),
  /** Partitioned by {@link BenchmarkRows#PARTITION_COLUMN}: 16 open files per writer subtask. */
  PARTITIONED("partitioned");

  private final String id;

  Scenario(String id) {
    this.id = id;
  }

  public String id() {
    return id;
  }

  public boolean partitioned() {
    return this == PARTITIONED;
  }

  public static Scenario of(String id) {
    for (Scenario scenario : values()) {
      if (scenario.id.equals(id)) {
        return scenario;
      }
    }
    throw new IllegalArgumentException(
        "Unknown scenario '" + id + "'; known: unpartitioned, partitioned");
  }
}
