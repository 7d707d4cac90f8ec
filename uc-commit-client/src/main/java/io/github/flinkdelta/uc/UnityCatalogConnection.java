/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.uc;

import java.io.Serializable;
import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;

/**
 * How to reach a Unity Catalog server and prove who we are: a static bearer token, or OAuth
 * machine-to-machine (client credentials) with tokens renewed before they expire.
 *
 * @param endpoint the server's base URI, e.g. {@code https://uc.example.com}; the API lives below
 *     {@code /api/2.1/unity-catalog}
 * @param auth how calls are authenticated
 * @param commitApi which of the catalog's commit APIs to use
 * @param requestTimeout how long the connector's own catalog calls (table lookups, the commit-API
 *     probe, catalog browsing, schema DDL, table registration and deletion) may take to connect and
 *     to answer before they fail. Commits, staging-table calls of the UC Delta API and credential
 *     renewals go through the clients inside Delta Kernel, delta-storage and {@code
 *     unitycatalog-hadoop}, which set no timeout of their own: a commit the catalog never answers
 *     holds the committer until Flink's checkpoint timeout fails the job over, and the commit is
 *     then settled by its transaction id.
 */
@PublicEvolving
public record UnityCatalogConnection(
    URI endpoint, Auth auth, CommitApi commitApi, Duration requestTimeout) implements Serializable {

  /** The request timeout unless one is set. */
  public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(30);

  /** The REST base the standalone server prints, which some paste as the endpoint. */
  private static final String API_BASE = "/api/2.1/unity-catalog";

  /**
   * @param endpoint the server's base URI, e.g. {@code https://uc.example.com}; a trailing {@code
   *     /api/2.1/unity-catalog} (the REST base the server prints) is accepted and removed
   */
  public UnityCatalogConnection {
    Objects.requireNonNull(endpoint, "endpoint");
    endpoint = baseUri(endpoint);
    Objects.requireNonNull(auth, "auth");
    Objects.requireNonNull(commitApi, "commitApi");
    Objects.requireNonNull(requestTimeout, "requestTimeout");
    if (requestTimeout.isNegative() || requestTimeout.isZero()) {
      throw new IllegalArgumentException("requestTimeout must be positive: " + requestTimeout);
    }
  }

  /** A connection with the default request timeout. */
  public UnityCatalogConnection(URI endpoint, Auth auth, CommitApi commitApi) {
    this(endpoint, auth, commitApi, DEFAULT_REQUEST_TIMEOUT);
  }

  /** A connection that detects the commit API. */
  public UnityCatalogConnection(URI endpoint, Auth auth) {
    this(endpoint, auth, CommitApi.AUTO);
  }

  /** A connection that sends a static bearer token and detects the commit API. */
  public UnityCatalogConnection(URI endpoint, Secret token) {
    this(endpoint, new StaticToken(token), CommitApi.AUTO);
  }

  /**
   * A builder of a connection to the server at {@code endpoint}, e.g. {@code
   * UnityCatalogConnection.builder("https://uc.example.com").token(Secret.fromEnvironment("UC_TOKEN"))
   * .build()}.
   */
  public static Builder builder(String endpoint) {
    return new Builder(URI.create(endpoint));
  }

  private static URI baseUri(URI endpoint) {
    String uri = endpoint.toString();
    while (uri.endsWith("/")) {
      uri = uri.substring(0, uri.length() - 1);
    }
    if (uri.endsWith(API_BASE)) {
      uri = uri.substring(0, uri.length() - API_BASE.length());
    }
    if (endpoint.getScheme() == null || endpoint.getHost() == null) {
      throw new IllegalArgumentException(
          "The Unity Catalog URI '"
              + endpoint
              + "' is not an absolute http(s) URI; give the server's base, e.g."
              + " https://uc.example.com or http://localhost:8080");
    }
    return URI.create(uri);
  }

  /** This connection with another commit API, e.g. the one detected when the job was built. */
  public UnityCatalogConnection withCommitApi(CommitApi api) {
    return new UnityCatalogConnection(endpoint, auth, api, requestTimeout);
  }

  /** This connection with another request timeout. */
  public UnityCatalogConnection withRequestTimeout(Duration timeout) {
    return new UnityCatalogConnection(endpoint, auth, commitApi, timeout);
  }

  /** The catalog API through which commits are ratified. */
  public enum CommitApi {
    /** The UC Delta API ({@code /delta/v1}) when the server has it (UC 0.5+), else legacy. */
    AUTO,
    /** The UC Delta API under {@code /delta/v1}, UC 0.5 and later. */
    DELTA_V1,
    /** The commits API {@code /delta/preview/commits}, for servers older than UC 0.5. */
    LEGACY
  }

  /** How calls to the catalog are authenticated. */
  public sealed interface Auth extends Serializable permits StaticToken, OAuthClientCredentials {
    /** The settings Unity Catalog's token providers read. Holds secrets: never log it. */
    Map<String, String> tokenProviderConfig();
  }

  /** A fixed bearer token. */
  public record StaticToken(Secret token) implements Auth {
    public StaticToken {
      Objects.requireNonNull(token, "token");
    }

    @Override
    public Map<String, String> tokenProviderConfig() {
      return Map.of("type", "static", "token", token.reveal());
    }
  }

  /**
   * OAuth 2.0 client credentials: tokens are fetched from {@code tokenUri} with the client id and
   * secret, and renewed before they expire.
   */
  public record OAuthClientCredentials(
      URI tokenUri, String clientId, Secret clientSecret, String scope) implements Auth {
    public OAuthClientCredentials {
      Objects.requireNonNull(tokenUri, "tokenUri");
      Objects.requireNonNull(clientId, "clientId");
      Objects.requireNonNull(clientSecret, "clientSecret");
    }

    @Override
    public Map<String, String> tokenProviderConfig() {
      Map<String, String> config = new HashMap<>();
      config.put("type", "oauth");
      config.put("oauth.uri", tokenUri.toString());
      config.put("oauth.clientId", clientId);
      config.put("oauth.clientSecret", clientSecret.reveal());
      if (scope != null) {
        config.put("oauth.scope", scope);
      }
      return config;
    }
  }

  /**
   * Builds a {@link UnityCatalogConnection}: one way to authenticate ({@link #token} or {@link
   * #oauth}), the commit API ({@link CommitApi#AUTO} unless set) and the request timeout ({@link
   * #DEFAULT_REQUEST_TIMEOUT} unless set).
   */
  @PublicEvolving
  public static final class Builder {
    private final URI endpoint;
    private Auth auth;
    private CommitApi commitApi = CommitApi.AUTO;
    private Duration requestTimeout = DEFAULT_REQUEST_TIMEOUT;

    private Builder(URI endpoint) {
      this.endpoint = endpoint;
    }

    /** Authenticates with a fixed bearer token. */
    public Builder token(Secret token) {
      this.auth = new StaticToken(token);
      return this;
    }

    /**
     * Authenticates with OAuth 2.0 client credentials fetched from {@code tokenUri}.
     *
     * @param scope the scope to ask for, or null for the server's default
     */
    public Builder oauth(String tokenUri, String clientId, Secret clientSecret, String scope) {
      this.auth = new OAuthClientCredentials(URI.create(tokenUri), clientId, clientSecret, scope);
      return this;
    }

    /** The catalog API through which commits are ratified. */
    public Builder commitApi(CommitApi commitApi) {
      this.commitApi = Objects.requireNonNull(commitApi, "commitApi");
      return this;
    }

    /** How long the connector's own catalog calls may take (see {@link UnityCatalogConnection}). */
    public Builder requestTimeout(Duration requestTimeout) {
      this.requestTimeout = Objects.requireNonNull(requestTimeout, "requestTimeout");
      return this;
    }

    /**
     * @throws IllegalStateException when no way to authenticate was given
     */
    public UnityCatalogConnection build() {
      if (auth == null) {
        throw new IllegalStateException(
            "A Unity Catalog connection to "
                + endpoint
                + " needs a way to authenticate: call token(...) or oauth(...)");
      }
      return new UnityCatalogConnection(endpoint, auth, commitApi, requestTimeout);
    }
  }
}
