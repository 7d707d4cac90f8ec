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
package io.github.flinkdelta.core.types;

import java.util.List;
import org.apache.flink.annotation.Internal;

/** Thrown when a schema has columns whose types cannot cross between Flink and Delta. */
@Internal
public final class UnsupportedColumnTypeException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  private final List<String> problems;

  UnsupportedColumnTypeException(List<String> problems) {
    super(
        "Unsupported column types: "
            + String.join("; ", problems)
            + ". Delta holds BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE, DECIMAL(p<=38),"
            + " CHAR/VARCHAR/STRING, BINARY/VARBINARY/BYTES, DATE, TIMESTAMP, TIMESTAMP_LTZ, ARRAY,"
            + " MAP and ROW; cast the column to one of them.");
    this.problems = List.copyOf(problems);
  }

  /** One entry per offending column, each naming the column's path and its type. */
  public List<String> problems() {
    return problems;
  }
}
