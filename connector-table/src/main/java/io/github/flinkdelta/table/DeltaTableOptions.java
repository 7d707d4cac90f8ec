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
package io.github.flinkdelta.table;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

/**
 * Where a {@code 'connector' = 'delta'} table lives: a path, or a Unity Catalog table reached
 * through {@link io.github.flinkdelta.common.UnityCatalogOptions}. The write options are {@link
 * io.github.flinkdelta.sink.DeltaSinkOptions}.
 */
@PublicEvolving
public final class DeltaTableOptions {

  public static final ConfigOption<String> TABLE_PATH =
      ConfigOptions.key("table-path")
          .stringType()
          .noDefaultValue()
          .withDescription("Root location of a Delta table on a path, e.g. s3a://bucket/events.");

  public static final ConfigOption<String> UC_TABLE =
      ConfigOptions.key("uc.table")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "Unity Catalog table, catalog.schema.table, written instead of 'table-path'.");

  private DeltaTableOptions() {}
}
