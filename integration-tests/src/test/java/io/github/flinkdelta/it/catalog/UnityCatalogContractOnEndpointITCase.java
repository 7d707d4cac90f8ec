/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.catalog;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.flinkdelta.uc.Secret;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import java.net.URI;
import org.junit.jupiter.api.BeforeEach;

/**
 * The contract against a real Unity Catalog endpoint named by {@code UC_URI}, {@code UC_TOKEN},
 * {@code UC_CATALOG} and {@code UC_SCHEMA}; skipped, saying why, when they are unset. The catalog's
 * storage must be reachable from this machine with the vended credentials. {@code UC_COMMIT_API}
 * ({@code AUTO}, the default, {@code DELTA_V1} or {@code LEGACY}) chooses the commit API.
 */
class UnityCatalogContractOnEndpointITCase extends UnityCatalogContract {

  @BeforeEach
  void requireEndpoint() {
    for (String variable : new String[] {"UC_URI", "UC_TOKEN", "UC_CATALOG", "UC_SCHEMA"}) {
      if (System.getenv(variable) == null) {
        String reason =
            "Skipped: set UC_URI, UC_TOKEN, UC_CATALOG and UC_SCHEMA to run the Unity Catalog"
                + " contract suite against a real endpoint; "
                + variable
                + " is unset.";
        System.err.println(getClass().getSimpleName() + ": " + reason);
        assumeTrue(false, reason);
      }
    }
  }

  @Override
  UnityCatalogConnection connection() {
    return new UnityCatalogConnection(
        URI.create(System.getenv("UC_URI")),
        new UnityCatalogConnection.StaticToken(Secret.of(System.getenv("UC_TOKEN"))),
        UnityCatalogConnection.CommitApi.valueOf(
            System.getenv().getOrDefault("UC_COMMIT_API", "AUTO")));
  }

  @Override
  String catalog() {
    return System.getenv("UC_CATALOG");
  }

  @Override
  String schema() {
    return System.getenv("UC_SCHEMA");
  }
}
