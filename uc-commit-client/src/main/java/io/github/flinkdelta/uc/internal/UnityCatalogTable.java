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
package io.github.flinkdelta.uc.internal;

import java.io.Serializable;
import java.util.Objects;

/**
 * A table as the catalog knows it.
 *
 * @param name its three-part name
 * @param id the catalog's table id
 * @param location the table's storage location
 * @param managed whether the catalog ratifies its commits (a managed table)
 */
public record UnityCatalogTable(
    UnityCatalogTableName name, String id, String location, boolean managed)
    implements Serializable {
  public UnityCatalogTable {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(location, "location");
  }
}
