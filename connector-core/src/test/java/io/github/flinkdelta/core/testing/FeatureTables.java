/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.testing;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Tables whose first commit is written by hand, for features Kernel cannot create (CHECK
 * constraints, generated and identity columns, ...): {@code _delta_log/00000000000000000000.json}
 * holds a {@code protocol} and a {@code metaData} action as PROTOCOL.md describes them.
 */
public final class FeatureTables {

  private static final ObjectMapper JSON = new ObjectMapper();

  private FeatureTables() {}

  /** Reader version 3, writer version 7, with these writer features and no reader features. */
  public static ObjectNode writerFeatures(String... features) {
    return protocol(3, 7, List.of(), List.of(features));
  }

  /** Reader version 3, writer version 7, with features both readers and writers must support. */
  public static ObjectNode readerWriterFeatures(String... features) {
    return protocol(3, 7, List.of(features), List.of(features));
  }

  /**
   * A protocol of legacy versions (before table features), e.g. writer version 2 for invariants.
   */
  public static ObjectNode legacyProtocol(int readerVersion, int writerVersion) {
    ObjectNode protocol = JSON.createObjectNode();
    protocol.put("minReaderVersion", readerVersion);
    protocol.put("minWriterVersion", writerVersion);
    return protocol;
  }

  private static ObjectNode protocol(
      int readerVersion, int writerVersion, List<String> reader, List<String> writer) {
    ObjectNode protocol = legacyProtocol(readerVersion, writerVersion);
    reader.forEach(protocol.putArray("readerFeatures")::add);
    writer.forEach(protocol.putArray("writerFeatures")::add);
    return protocol;
  }

  /** A struct field of the schema; {@code type} is a primitive name or a nested type. */
  public static ObjectNode field(String name, Object type, Map<String, ?> metadata) {
    ObjectNode field = JSON.createObjectNode();
    field.put("name", name);
    field.set("type", JSON.valueToTree(type));
    field.put("nullable", true);
    field.set("metadata", JSON.valueToTree(metadata));
    return field;
  }

  /** A struct type of {@code fields}, as a schema or as the type of a nested column. */
  public static ObjectNode struct(ObjectNode... fields) {
    ObjectNode struct = JSON.createObjectNode();
    struct.put("type", "struct");
    ArrayNode list = struct.putArray("fields");
    for (ObjectNode field : fields) {
      list.add(field);
    }
    return struct;
  }

  /** An array type of {@code element}, whose elements may be null. */
  public static ObjectNode array(Object element) {
    ObjectNode array = JSON.createObjectNode();
    array.put("type", "array");
    array.set("elementType", JSON.valueToTree(element));
    array.put("containsNull", true);
    return array;
  }

  /**
   * Writes version 0 of an unpartitioned table at {@code dir} and returns its location.
   *
   * @param configuration the table properties, e.g. {@code delta.constraints.<name>}
   */
  public static String create(
      Path dir, ObjectNode protocol, ObjectNode schema, Map<String, String> configuration)
      throws IOException {
    ObjectNode metadata = JSON.createObjectNode();
    metadata.put("id", UUID.randomUUID().toString());
    metadata.putObject("format").put("provider", "parquet").putObject("options");
    metadata.put("schemaString", JSON.writeValueAsString(schema));
    metadata.putArray("partitionColumns");
    metadata.set("configuration", JSON.valueToTree(configuration));
    metadata.put("createdTime", System.currentTimeMillis());
    Path log = Files.createDirectories(dir.resolve("_delta_log"));
    Files.writeString(
        log.resolve("00000000000000000000.json"),
        JSON.writeValueAsString(JSON.createObjectNode().set("protocol", protocol))
            + "\n"
            + JSON.writeValueAsString(JSON.createObjectNode().set("metaData", metadata))
            + "\n");
    return dir.toUri().toString();
  }
}
