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
