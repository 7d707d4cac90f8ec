/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.schema;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Which columns get min/max/nullCount statistics, following the table properties {@code
 * delta.dataSkippingStatsColumns} (a list of column names) or else {@code
 * delta.dataSkippingNumIndexedCols} (the first N leaf columns, 32 by default, -1 for all); a
 * clustered table's clustering columns always get them, as the protocol requires.
 */
final class StatsSelection {

  static final StatsSelection NONE = new StatsSelection(null, 0);

  private final Set<String> named;
  private final Set<String> always;
  private int remaining;

  private StatsSelection(Set<String> named, int remaining) {
    this(named, remaining, Set.of());
  }

  private StatsSelection(Set<String> named, int remaining, Set<String> always) {
    this.named = named;
    this.remaining = remaining;
    this.always = always;
  }

  /**
   * This selection, which also selects {@code columns} (dot-separated paths), whatever the
   * properties say.
   */
  StatsSelection always(List<String> columns) {
    return new StatsSelection(
        named,
        remaining,
        columns.stream().map(c -> c.toLowerCase(Locale.ROOT)).collect(Collectors.toSet()));
  }

  static StatsSelection from(Map<String, String> properties) {
    String columns = properties.get(FileLayouts.STATS_COLUMNS);
    if (columns != null && !columns.isBlank()) {
      return new StatsSelection(
          Arrays.stream(columns.split(","))
              .map(c -> c.trim().replace("`", "").toLowerCase(Locale.ROOT))
              .filter(c -> !c.isEmpty())
              .collect(Collectors.toSet()),
          0);
    }
    String count = properties.get(FileLayouts.NUM_INDEXED_COLS);
    int limit = count == null ? 32 : Integer.parseInt(count.trim());
    return new StatsSelection(null, limit < 0 ? Integer.MAX_VALUE : limit);
  }

  /** Whether the leaf column at {@code path} (dot-separated) gets statistics; call in order. */
  boolean select(String path) {
    if (always.contains(path.toLowerCase(Locale.ROOT))) {
      return true;
    }
    if (named != null) {
      String lower = path.toLowerCase(Locale.ROOT);
      for (String name : named) {
        if (lower.equals(name) || lower.startsWith(name + ".")) {
          return true;
        }
      }
      return false;
    }
    if (remaining > 0) {
      remaining--;
      return true;
    }
    return false;
  }
}
