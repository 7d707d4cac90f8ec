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
