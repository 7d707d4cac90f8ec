/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.config;

import org.apache.flink.annotation.PublicEvolving;

/**
 * How the sink reconciles the rows' columns with the table's schema ({@code
 * sink.schema-evolution}).
 */
@PublicEvolving
public enum SchemaEvolution {
  /** Any difference between the rows and the table fails the build, listed in one message. */
  NONE("none"),
  /** Columns the table lacks are added as nullable columns, top level and nested. */
  ADD_COLUMNS("add-columns"),
  /** Also widens column types and makes NOT NULL columns nullable. */
  WIDEN("widen");

  private final String value;

  SchemaEvolution(String value) {
    this.value = value;
  }

  /** The option's value, as SQL and the configuration spell it. */
  @Override
  public String toString() {
    return value;
  }
}
