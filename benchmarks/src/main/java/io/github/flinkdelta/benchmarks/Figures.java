/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** Named figures of one measurement, in the order they were recorded; written as JSON. */
final class Figures {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Map<String, Object> values = new LinkedHashMap<>();

  Figures(String measurement) {
    values.put("measurement", measurement);
  }

  private Figures(Map<String, Object> values) {
    this.values.putAll(values);
  }

  Figures put(String name, Object value) {
    values.put(name, value);
    return this;
  }

  Map<String, Object> values() {
    return values;
  }

  void write(Path file) throws IOException {
    JSON.writerWithDefaultPrettyPrinter().writeValue(file.toFile(), values);
  }

  static Figures read(Path file) throws IOException {
    return new Figures(JSON.readValue(file.toFile(), new TypeReference<Map<String, Object>>() {}));
  }

  @Override
  public String toString() {
    StringBuilder text = new StringBuilder();
    values.forEach(
        (name, value) ->
            text.append(
                String.format(
                    "  %-36s %s%n",
                    name, value instanceof Double d ? String.format("%.1f", d) : value)));
    return text.toString();
  }
}
