/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.testkit;

import io.unitycatalog.client.delta.model.DeltaProtocol;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The properties the UC Delta API keeps for a table beyond those the client sends: the protocol
 * written out as {@code delta.minReaderVersion}, {@code delta.minWriterVersion} and one {@code
 * delta.feature.<name> = supported} per feature, and the version and timestamp of the last commit
 * that changed the table's metadata ({@code delta.lastUpdateVersion}, {@code
 * delta.lastCommitTimestamp}), which the load-table answer also reports as {@code
 * last-commit-version} and {@code last-commit-timestamp-ms}. Data-only commits leave those two
 * alone.
 */
final class DeltaTableProperties {

  static final String LAST_UPDATE_VERSION = "delta.lastUpdateVersion";
  static final String LAST_COMMIT_TIMESTAMP = "delta.lastCommitTimestamp";
  private static final String FEATURE_PREFIX = "delta.feature.";

  private DeltaTableProperties() {}

  /** What the catalog stores for a table created with these properties, protocol and version 0. */
  static Map<String, String> created(
      Map<String, String> sent, DeltaProtocol protocol, Long versionZeroTimestampMs) {
    Map<String, String> stored = new HashMap<>(sent);
    addProtocol(stored, protocol);
    if (versionZeroTimestampMs != null) {
      stored.put(LAST_COMMIT_TIMESTAMP, String.valueOf(versionZeroTimestampMs));
    }
    stored.put(LAST_UPDATE_VERSION, "0");
    return stored;
  }

  /** Replaces the protocol's properties with those of {@code protocol}. */
  static void replaceProtocol(Map<String, String> properties, DeltaProtocol protocol) {
    properties.keySet().removeIf(key -> key.startsWith(FEATURE_PREFIX));
    addProtocol(properties, protocol);
  }

  /** Records a metadata-changing commit. */
  static void stampCommit(Map<String, String> properties, long version, long timestampMs) {
    properties.put(LAST_UPDATE_VERSION, String.valueOf(version));
    properties.put(LAST_COMMIT_TIMESTAMP, String.valueOf(timestampMs));
  }

  /** The stored value of a numeric property, or null when absent or not a number. */
  static Long longValue(Map<String, String> properties, String key) {
    String value = properties.get(key);
    if (value == null) {
      return null;
    }
    try {
      return Long.parseLong(value);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private static void addProtocol(Map<String, String> properties, DeltaProtocol protocol) {
    if (protocol == null) {
      return;
    }
    if (protocol.getMinReaderVersion() != null) {
      properties.put("delta.minReaderVersion", protocol.getMinReaderVersion().toString());
    }
    if (protocol.getMinWriterVersion() != null) {
      properties.put("delta.minWriterVersion", protocol.getMinWriterVersion().toString());
    }
    addFeatures(properties, protocol.getReaderFeatures());
    addFeatures(properties, protocol.getWriterFeatures());
  }

  private static void addFeatures(Map<String, String> properties, List<String> features) {
    if (features != null) {
      features.forEach(feature -> properties.put(FEATURE_PREFIX + feature, "supported"));
    }
  }
}
