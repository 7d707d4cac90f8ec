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
package io.github.flinkdelta.it.catalog;

import io.github.flinkdelta.testkit.UnityCatalogServerExtension;
import io.github.flinkdelta.uc.Secret;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The contract against the embedded test server. */
class UnityCatalogContractOnTestServerITCase extends UnityCatalogContract {

  @RegisterExtension
  static final UnityCatalogServerExtension CATALOG =
      new UnityCatalogServerExtension(uc -> uc.token("contract-token"));

  @Override
  UnityCatalogConnection connection() {
    return new UnityCatalogConnection(CATALOG.uri(), Secret.of("contract-token"));
  }

  @Override
  String catalog() {
    return "main";
  }

  @Override
  String schema() {
    return "default";
  }
}
