package io.github.flinkdelta.core.schema;

import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Which columns get min/max/nullCount statistics, following the table properties {@code
 * delta.dataSkippingStatsColumns} (a list of column names) or else {@code
 * delta.dataSkippingNumIndexedCols} (the first N leaf columns, 32 by default, -1 for all).
 */
final class StatsSelection {

  static final StatsSelection NONE = new StatsSelection(null, 0);

  private final Set<String> named;
  private int remaining;

  private StatsSelection(Set<String> named, int remaining) {
    this.named = named;
    this.remaining = remaining;
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
