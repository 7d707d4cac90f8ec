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
