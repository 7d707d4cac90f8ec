/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.upsert;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.flink.annotation.Internal;

/**
 * Which tables an upsert sink can write: its commits remove files and re-add them with deletion
 * vectors, which some table features forbid or which Kernel 4.4 cannot commit.
 */
@Internal
public final class UpsertTables {

  /**
   * The table property that records a table's primary key, its columns separated by commas, for
   * Flink: Delta itself has no primary keys.
   */
  public static final String PRIMARY_KEY = "flink.primary-key";

  /** The property that allows writers to write deletion vectors. */
  public static final String DELETION_VECTORS = "delta.enableDeletionVectors";

  private static final String CHANGE_DATA_FEED = "delta.enableChangeDataFeed";
  private static final String APPEND_ONLY = "delta.appendOnly";
  private static final List<String> ICEBERG_COMPAT =
      List.of("delta.enableIcebergCompatV2", "delta.enableIcebergCompatV3");

  private UpsertTables() {}

  /** What stands in the way of upserts into a table of {@code properties}; empty when nothing. */
  public static List<String> problems(String tableName, Map<String, String> properties) {
    List<String> problems = new ArrayList<>();
    if (on(properties, CHANGE_DATA_FEED)) {
      problems.add(
          String.format(
              "Delta table %s has the change data feed on ('%s' = 'true'): Delta Kernel 4.4 cannot"
                  + " commit the change files an update or delete must write there, so the sink"
                  + " cannot take upserts into it. Turn the change data feed off, or write to a"
                  + " table without it.",
              tableName, CHANGE_DATA_FEED));
    }
    if (on(properties, APPEND_ONLY)) {
      problems.add(
          String.format(
              "Delta table %s is append-only ('%s' = 'true'): updates and deletes are not allowed"
                  + " in it. Write it without a primary key, or unset the property.",
              tableName, APPEND_ONLY));
    }
    for (String compat : ICEBERG_COMPAT) {
      if (on(properties, compat)) {
        problems.add(
            String.format(
                "Delta table %s has '%s' = 'true', which forbids deletion vectors: the sink"
                    + " cannot take upserts into it.",
                tableName, compat));
      }
    }
    if ("false".equalsIgnoreCase(properties.get(DELETION_VECTORS))) {
      problems.add(
          String.format(
              "Delta table %s has deletion vectors turned off ('%s' = 'false'), which upserts"
                  + " write. Set it to 'true' (readers then need reader version 3 with the"
                  + " deletionVectors feature).",
              tableName, DELETION_VECTORS));
    }
    return problems;
  }

  /** The primary key a table of {@code properties} records; empty when it records none. */
  public static List<String> recordedKey(Map<String, String> properties) {
    String key = properties.get(PRIMARY_KEY);
    if (key == null || key.isBlank()) {
      return List.of();
    }
    return Arrays.stream(key.split(",")).map(String::trim).toList();
  }

  /** The value of {@link #PRIMARY_KEY} for {@code columns}. */
  public static String keyProperty(List<String> columns) {
    return String.join(",", columns);
  }

  /**
   * What is wrong with writing a table that records {@code recorded} as its key with a sink keyed
   * by {@code key} (empty for none); null when nothing.
   */
  public static String keyMismatch(String tableName, List<String> recorded, List<String> key) {
    if (recorded.isEmpty()) {
      return null;
    }
    if (key.isEmpty()) {
      return String.format(
          "Delta table %s records the primary key (%s) ('%s'): appended without a key, its rows"
              + " would repeat keys. Give the sink the key (DeltaSinkBuilder.primaryKey, or"
              + " PRIMARY KEY (%s) NOT ENFORCED in SQL).",
          tableName, String.join(", ", recorded), PRIMARY_KEY, String.join(", ", recorded));
    }
    List<String> lower = key.stream().map(c -> c.toLowerCase(Locale.ROOT)).toList();
    List<String> recordedLower = recorded.stream().map(c -> c.toLowerCase(Locale.ROOT)).toList();
    if (!lower.equals(recordedLower)) {
      return String.format(
          "Delta table %s records the primary key (%s), but the sink is keyed by (%s): use the"
              + " table's key.",
          tableName, String.join(", ", recorded), String.join(", ", key));
    }
    return null;
  }

  /**
   * The app id under which the compactions of an upsert sink's writers are committed, for the sink
   * committing under {@code appId}: in a version of their own after each checkpoint's, each with a
   * transaction id of its own, so that a replay commits each exactly once.
   */
  public static String rewriteAppId(String appId) {
    return appId + "/compactions";
  }

  /**
   * The app id under which a sink committing under {@code appId} truncates a table, one transaction
   * version per checkpoint it truncates after. Its versions count as another writer's: upsert
   * writers take the rows they remove out of their key indexes as they follow the table.
   */
  public static String truncateAppId(String appId) {
    return appId + "/truncates";
  }

  /** Whether writers may write deletion vectors into a table of {@code properties}. */
  public static boolean deletionVectorsOn(Map<String, String> properties) {
    return on(properties, DELETION_VECTORS);
  }

  private static boolean on(Map<String, String> properties, String key) {
    return "true".equalsIgnoreCase(properties.get(key));
  }
}
