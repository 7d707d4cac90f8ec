/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.deletion;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.flink.annotation.Internal;

/**
 * The statistics a file with a deletion vector must carry. (Descriptors in Kernel's internal form
 * are made by the Kernel adapter, {@code core.kernel}.)
 */
@Internal
public final class DeletionVectors {

  private static final ObjectMapper JSON = new ObjectMapper();

  private DeletionVectors() {}

  /**
   * The physical row count of a file's statistics: the protocol requires it of every file with a
   * deletion vector.
   *
   * @return the count, or -1 when the statistics have none
   */
  public static long numRecords(String statsJson) {
    if (statsJson == null) {
      return -1;
    }
    JsonNode count = parse(statsJson).get("numRecords");
    return count == null || !count.canConvertToLong() ? -1 : count.asLong();
  }

  /**
   * The statistics with {@code tightBounds} false: once rows of a file are deleted, its minimum and
   * maximum values may belong to deleted rows. The other statistics stay as they are.
   */
  public static String withWideBounds(String statsJson) {
    ObjectNode stats = (ObjectNode) parse(statsJson);
    stats.put("tightBounds", false);
    return stats.toString();
  }

  private static JsonNode parse(String statsJson) {
    try {
      JsonNode node = JSON.readTree(statsJson);
      if (!(node instanceof ObjectNode)) {
        throw new IllegalStateException("File statistics are not a JSON object: " + statsJson);
      }
      return node;
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("Cannot parse file statistics " + statsJson, e);
    }
  }
}
