/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
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
