/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
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
