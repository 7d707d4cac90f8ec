package io.github.flinkdelta.uc.internal;

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
    if (cause instanceof ApiException api && (api.getCode() == 401 || api.getCode() == 403)) {
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
    return new IllegalStateException(
        "Unity Catalog at " + connection.endpoint() + " could not " + action + status + "." + hint,
        cause);
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
