package io.github.flinkdelta.sink.table;

import io.github.flinkdelta.uc.Secret;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import java.net.URI;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.api.ValidationException;

/**
 * Builds a {@link UnityCatalogConnection} from SQL options: a static token, or the OAuth client
 * credentials; never both. Shared by the {@code delta} table connector and the {@code unitycatalog}
 * catalog, whose keys differ only by prefix.
 */
@Internal
public final class UnityCatalogConnections {

  private UnityCatalogConnections() {}

  /**
   * The connection these options describe.
   *
   * @param prefix how the option keys begin ({@code "uc."} for tables, {@code ""} for the catalog)
   * @param owner what the options belong to, for messages
   */
  public static UnityCatalogConnection of(
      String owner,
      String prefix,
      String uri,
      String token,
      String tokenUri,
      String clientId,
      String clientSecret,
      String scope) {
    if (uri == null) {
      throw new ValidationException(owner + " needs '" + prefix + "uri'.");
    }
    boolean oauth = tokenUri != null || clientId != null || clientSecret != null;
    if (oauth && token != null) {
      throw new ValidationException(
          owner
              + " sets both '"
              + prefix
              + "token' and OAuth options; authenticate with one of them.");
    }
    if (!oauth) {
      return new UnityCatalogConnection(URI.create(uri), Secret.of(token == null ? "" : token));
    }
    if (tokenUri == null || clientId == null || clientSecret == null) {
      throw new ValidationException(
          owner
              + " needs all of '"
              + prefix
              + "oauth.token-uri', '"
              + prefix
              + "oauth.client-id' and '"
              + prefix
              + "oauth.client-secret' for OAuth.");
    }
    return new UnityCatalogConnection(
        URI.create(uri),
        new UnityCatalogConnection.OAuthClientCredentials(
            URI.create(tokenUri), clientId, Secret.of(clientSecret), scope));
  }
}
