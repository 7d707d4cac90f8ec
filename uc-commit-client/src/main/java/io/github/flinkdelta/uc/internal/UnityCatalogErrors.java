/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.uc.internal;

import io.github.flinkdelta.uc.UnityCatalogAccessDeniedException;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import io.unitycatalog.client.ApiException;
import java.net.http.HttpTimeoutException;
import javax.net.ssl.SSLHandshakeException;

/** Messages for failed catalog calls: what failed, against which server, and what to check. */
final class UnityCatalogErrors {

  private UnityCatalogErrors() {}

  static IllegalStateException callFailed(
      UnityCatalogConnection connection, String action, Exception cause) {
    String status =
        cause instanceof ApiException api && api.getCode() != 0
            ? " (HTTP " + api.getCode() + ")"
            : "";
    String hint = "";
    if (causedBy(cause, java.net.ConnectException.class)) {
      hint =
          " Nothing answers at "
              + connection.endpoint()
              + " (connection refused). Check 'uc.uri' (the server's base URI, e.g."
              + " http://localhost:8080) and that the server is running and reachable from here.";
    } else if (cause instanceof ApiException api && api.getCode() == 404 && !fromCatalog(api)) {
      hint = notACatalog(connection);
    } else if (cause instanceof ApiException api
        && (api.getCode() == 401 || api.getCode() == 403)) {
      hint = " Check the token: the server refused it.";
    } else if (causedBy(cause, HttpTimeoutException.class)) {
      hint =
          " The server did not answer within the request timeout of "
              + connection.requestTimeout().toMillis()
              + " ms. Check that the server is up and reachable, or raise the timeout.";
    } else if (causedBy(cause, SSLHandshakeException.class)) {
      hint =
          " This JVM does not trust the server's TLS certificate. Add the certificate (or its CA)"
              + " to a trust store and point every Flink JVM at it, e.g. env.java.opts.all:"
              + " -Djavax.net.ssl.trustStore=/path/truststore.p12"
              + " -Djavax.net.ssl.trustStorePassword=...";
    } else if (connection.auth() instanceof UnityCatalogConnection.OAuthClientCredentials oauth) {
      hint =
          " Check the OAuth client id and secret and the token endpoint "
              + oauth.tokenUri()
              + ": "
              + cause.getMessage();
    }
    String message =
        "Unity Catalog at " + connection.endpoint() + " could not " + action + status + "." + hint;
    return cause instanceof ApiException api && api.getCode() == 403
        ? new UnityCatalogAccessDeniedException(message, cause)
        : new IllegalStateException(message, cause);
  }

  /**
   * Whether a 404 came from Unity Catalog (its error body names an error code) rather than from
   * another HTTP server at the URI, which answers every catalog path with 404.
   */
  static boolean fromCatalog(ApiException notFound) {
    String body = notFound.getResponseBody();
    return body != null && (body.contains("\"error_code\"") || body.contains("\"error\":{"));
  }

  static String notACatalog(UnityCatalogConnection connection) {
    return " The server at "
        + connection.endpoint()
        + " answered 404 without a Unity Catalog error, so it is probably not a Unity Catalog"
        + " server, or 'uc.uri' has a path: give the server's base URI, e.g. http://localhost:8080"
        + " (the connector adds /api/2.1/unity-catalog).";
  }

  private static boolean causedBy(Throwable failure, Class<? extends Throwable> type) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (type.isInstance(t)) {
        return true;
      }
    }
    return false;
  }
}
