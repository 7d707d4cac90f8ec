package io.github.flinkdelta.uc;

import io.unitycatalog.client.ApiException;

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
}
