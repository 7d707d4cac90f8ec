/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.support;

import static org.assertj.core.api.Assertions.assertThat;

import io.delta.kernel.Snapshot;
import io.delta.kernel.TableManager;
import io.delta.kernel.defaults.engine.DefaultEngine;
import io.delta.kernel.engine.Engine;
import io.github.flinkdelta.core.storage.HadoopConfigurations;
import io.github.flinkdelta.core.testing.DeltaTableReader;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Checks an upsert table read back through Kernel (deletion vectors applied) against the rows a
 * {@link Changelog} replays to: as many rows as live keys, each key once, each with its last value.
 */
public final class UpsertAssert {

  private UpsertAssert() {}

  /** The latest version of the path table {@code table} holds exactly {@code expected}. */
  public static void assertExact(String table, Map<Long, List<Object>> expected) {
    assertRows(DeltaTableReader.readAll(table), expected, "table " + table);
  }

  /** {@code rows}, read from {@code what}, are exactly {@code expected}. */
  public static void assertRows(
      List<List<Object>> rows, Map<Long, List<Object>> expected, String what) {
    java.util.Set<List<Object>> extra = new java.util.HashSet<>(rows);
    Changelog.rows(expected).forEach(extra::remove);
    java.util.Set<List<Object>> missing = new java.util.HashSet<>(Changelog.rows(expected));
    rows.forEach(missing::remove);
    assertThat(extra).as("rows %s holds that it should not (missing: %s)", what, missing).isEmpty();
    assertThat(repeatedKeys(rows)).as("keys %s holds more than once", what).isEmpty();
    assertThat(rows).as("rows of %s", what).hasSize(expected.size());
    assertThat(rows)
        .as("rows of %s", what)
        .containsExactlyInAnyOrderElementsOf(Changelog.rows(expected));
  }

  /** Every version of the path table {@code table}, from the first, holds each key at most once. */
  public static void assertNoVersionRepeatsAKey(String table) {
    Engine engine = DefaultEngine.create(HadoopConfigurations.of(Map.of()));
    for (long version : DeltaLogFiles.versions(table)) {
      Snapshot snapshot = TableManager.loadSnapshot(table).atVersion(version).build(engine);
      assertThat(repeatedKeys(DeltaTableReader.read(engine, snapshot)))
          .as("keys version %d of %s holds more than once", version, table)
          .isEmpty();
    }
  }

  /** The keys (first column) {@code rows} hold more than once, with their counts. */
  public static Map<Object, Long> repeatedKeys(List<List<Object>> rows) {
    return rows.stream()
        .collect(Collectors.groupingBy(row -> row.get(0), Collectors.counting()))
        .entrySet()
        .stream()
        .filter(e -> e.getValue() > 1)
        .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
  }
}
