/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.testkit;

import io.unitycatalog.client.model.GenerateTemporaryTableCredential;
import io.unitycatalog.client.model.TableOperation;

/**
 * Who may call the server: the configured bearer token, a read-only token, and tokens issued to
 * OAuth clients. Without any of them configured, everyone may do everything.
 */
final class AccessControl {

  /** What a caller may do. */
  enum Access {
    FULL,
    READ_ONLY
  }

  private final String token;
  private final String readOnlyToken;
  private final OAuthTokens oauth;

  AccessControl(String token, String readOnlyToken, OAuthTokens oauth) {
    this.token = token;
    this.readOnlyToken = readOnlyToken;
    this.oauth = oauth;
  }

  /**
   * The access of a caller that sent this {@code Authorization} header.
   *
   * @throws UnityCatalogException 401 without a bearer token, 403 for an unknown one (never echoing
   *     it)
   */
  Access check(String authorization) {
    if (token == null && readOnlyToken == null && oauth == null) {
      return Access.FULL;
    }
    if (authorization == null || !authorization.startsWith("Bearer ")) {
      throw new UnityCatalogException(401, "UNAUTHENTICATED", "No bearer token");
    }
    String sent = authorization.substring("Bearer ".length());
    if (sent.equals(readOnlyToken)) {
      return Access.READ_ONLY;
    }
    if (sent.equals(token) || (oauth != null && oauth.valid(sent))) {
      return Access.FULL;
    }
    throw new UnityCatalogException(403, "PERMISSION_DENIED", "The bearer token is not valid");
  }

  /**
   * Refuses a read-only caller a call that changes the catalog or asks for credentials that allow
   * writing, as Unity Catalog refuses a principal without MODIFY.
   */
  static void authorize(Access access, ApiRequest request) {
    if (access == Access.READ_ONLY && writes(request)) {
      throw new UnityCatalogException(
          403,
          "PERMISSION_DENIED",
          "The caller may read but not modify: " + request.endpoint() + " needs MODIFY");
    }
  }

  private static boolean writes(ApiRequest request) {
    if (request.endpoint().equals("POST /temporary-table-credentials")) {
      GenerateTemporaryTableCredential ask = request.body(GenerateTemporaryTableCredential.class);
      return ask.getOperation() != TableOperation.READ;
    }
    if (request.endpoint().startsWith("HEAD ")) {
      return false;
    }
    if (request.endpoint().startsWith("GET ")) {
      return "READ_WRITE".equalsIgnoreCase(request.query("operation"));
    }
    return true;
  }
}
