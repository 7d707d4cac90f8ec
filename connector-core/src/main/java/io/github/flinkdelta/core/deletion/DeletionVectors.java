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
