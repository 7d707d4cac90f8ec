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
package io.github.flinkdelta.catalog;

import java.util.Map;
import java.util.Optional;
import org.apache.flink.table.catalog.CatalogDatabase;

/** A Unity Catalog schema as a Flink database. */
record SchemaDatabase(Map<String, String> properties, String comment) implements CatalogDatabase {

  @Override
  public Map<String, String> getProperties() {
    return properties;
  }

  @Override
  public String getComment() {
    return comment;
  }

  @Override
  public CatalogDatabase copy() {
    return this;
  }

  @Override
  public CatalogDatabase copy(Map<String, String> newProperties) {
    return new SchemaDatabase(Map.copyOf(newProperties), comment);
  }

  @Override
  public Optional<String> getDescription() {
    return Optional.ofNullable(comment);
  }

  @Override
  public Optional<String> getDetailedDescription() {
    return getDescription();
  }
}
