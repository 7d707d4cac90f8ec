/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.testkit;

import io.unitycatalog.client.delta.model.DeltaCreateTableRequest;
import io.unitycatalog.client.delta.model.DeltaProtocol;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the UC Delta API requires of a managed table it creates, as Unity Catalog OSS v0.6.0 checks
 * it: the catalog-managed protocol with its features, the required properties, the columns and the
 * last commit timestamp. A request that breaks it is a 400 listing every problem.
 */
final class ManagedTableContract {

  static final List<String> REQUIRED_READER_FEATURES =
      List.of("catalogManaged", "v2Checkpoint", "vacuumProtocolCheck", "deletionVectors");
  static final List<String> REQUIRED_WRITER_FEATURES =
      List.of(
          "catalogManaged",
          "v2Checkpoint",
          "vacuumProtocolCheck",
          "deletionVectors",
          "inCommitTimestamp");
  static final Map<String, String> REQUIRED_PROPERTIES =
      Map.of(
          "delta.enableDeletionVectors", "true",
          "delta.checkpointPolicy", "v2",
          "delta.enableInCommitTimestamps", "true",
          "delta.checkpoint.writeStatsAsStruct", "true",
          "delta.checkpoint.writeStatsAsJson", "true");

  /** The features a staging table's answer suggests, beyond the required ones. */
  static final List<String> SUGGESTED_READER_FEATURES = List.of("columnMapping");

  static final List<String> SUGGESTED_WRITER_FEATURES =
      List.of("columnMapping", "domainMetadata", "rowTracking");

  /**
   * The properties a staging table's answer suggests. Those whose value only the client can know
   * (column ids, the names of materialized row-tracking columns) are listed with a null value.
   */
  static final Map<String, String> SUGGESTED_PROPERTIES = suggestedProperties();

  private ManagedTableContract() {}

  private static Map<String, String> suggestedProperties() {
    Map<String, String> suggested = new LinkedHashMap<>();
    suggested.put("delta.enableRowTracking", "true");
    suggested.put("delta.rowTracking.materializedRowIdColumnName", null);
    suggested.put("delta.columnMapping.maxColumnId", null);
    suggested.put("delta.randomizeFilePrefixes", "true");
    suggested.put("delta.parquet.compression.codec", "zstd");
    suggested.put("delta.rowTracking.materializedRowCommitVersionColumnName", null);
    suggested.put("delta.columnMapping.mode", "name");
    return Collections.unmodifiableMap(suggested);
  }

  static void check(String full, DeltaCreateTableRequest create, Map<String, String> properties) {
    List<String> problems = new ArrayList<>();
    DeltaProtocol protocol = create.getProtocol();
    if (protocol == null) {
      problems.add("protocol is required");
    } else {
      if (orZero(protocol.getMinReaderVersion()) < 3
          || orZero(protocol.getMinWriterVersion()) < 7) {
        problems.add("protocol must be at least reader 3, writer 7");
      }
      List<String> reader = protocol.getReaderFeatures();
      List<String> writer = protocol.getWriterFeatures();
      if (reader == null || !reader.containsAll(REQUIRED_READER_FEATURES)) {
        problems.add("reader features must include " + REQUIRED_READER_FEATURES);
      }
      if (writer == null || !writer.containsAll(REQUIRED_WRITER_FEATURES)) {
        problems.add("writer features must include " + REQUIRED_WRITER_FEATURES);
      }
      if (reader != null && writer != null && !writer.containsAll(reader)) {
        problems.add("every reader feature must also be a writer feature");
      }
    }
    REQUIRED_PROPERTIES.forEach(
        (key, value) -> {
          if (!value.equals(properties.get(key))) {
            problems.add("property " + key + " must be " + value);
          }
        });
    if (create.getColumns() == null) {
      problems.add("columns are required");
    }
    if (create.getLastCommitTimestampMs() == null) {
      problems.add("last-commit-timestamp-ms is required");
    }
    if (!problems.isEmpty()) {
      throw UnityCatalogException.badRequest(
          "Managed table "
              + full
              + " breaks the catalog's contract: "
              + String.join("; ", problems));
    }
  }

  private static long orZero(Number value) {
    return value == null ? 0 : value.longValue();
  }
}
