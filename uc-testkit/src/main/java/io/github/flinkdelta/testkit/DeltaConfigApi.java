/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.testkit;

import io.unitycatalog.client.delta.model.DeltaCatalogConfig;
import java.util.List;

/** {@code GET /delta/v1/config}: which protocol version and endpoints the UC Delta API offers. */
final class DeltaConfigApi {

  private final CatalogState state;

  DeltaConfigApi(CatalogState state) {
    this.state = state;
  }

  /**
   * The catalog's configuration. Both query parameters are mandatory (a 400 without either, the
   * catalog checked first); the answer is protocol 1.0 whatever versions the client names. It lists
   * the twelve endpoints Unity Catalog OSS 0.6.0 lists, though this server does not serve rename,
   * metrics or path credentials, and answers listing tables with 405 as the real server does.
   */
  Object config(ApiRequest request) {
    String catalog = mandatory(request, "catalog");
    mandatory(request, "protocol-versions");
    if (!state.catalogs.containsKey(catalog)) {
      throw UnityCatalogException.notFound("CATALOG", "Catalog not found: " + catalog);
    }
    String table = "/v1/catalogs/{catalog}/schemas/{schema}/tables/{table}";
    return new DeltaCatalogConfig()
        .protocolVersion("1.0")
        .endpoints(
            List.of(
                "POST /v1/catalogs/{catalog}/schemas/{schema}/staging-tables",
                "POST /v1/catalogs/{catalog}/schemas/{schema}/tables",
                "GET /v1/catalogs/{catalog}/schemas/{schema}/tables",
                "GET " + table,
                "POST " + table,
                "DELETE " + table,
                "HEAD " + table,
                "POST " + table + "/rename",
                "GET " + table + "/credentials",
                "POST " + table + "/metrics",
                "GET /v1/staging-tables/{table_id}/credentials",
                "GET /v1/temporary-path-credentials"));
  }

  private static String mandatory(ApiRequest request, String parameter) {
    String value = request.query(parameter);
    if (value == null) {
      throw UnityCatalogException.badRequest("Mandatory parameter/header is missing: " + parameter);
    }
    return value;
  }
}
