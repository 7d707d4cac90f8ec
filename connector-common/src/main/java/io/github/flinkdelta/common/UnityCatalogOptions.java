/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.common;

import io.github.flinkdelta.uc.Secret;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import io.github.flinkdelta.uc.UnityCatalogConnection.CommitApi;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.ReadableConfig;

/**
 * How to reach a Unity Catalog server: the same keys in a {@code 'connector' = 'delta'} table, in a
 * {@code 'type' = 'unitycatalog'} catalog, and in {@code DeltaSinkBuilder#options}. {@link
 * #connection} is the one reader of them. Authenticate with a static token or with OAuth
 * machine-to-machine; the secret keys are named so that Flink masks their values.
 */
@PublicEvolving
public final class UnityCatalogOptions {

  public static final ConfigOption<String> URI =
      ConfigOptions.key("uc.uri")
          .stringType()
          .noDefaultValue()
          .withDescription("Base URI of the Unity Catalog server, e.g. https://uc.example.com.");

  public static final ConfigOption<String> TOKEN =
      ConfigOptions.key("uc.token")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "Bearer token for the Unity Catalog server. Masked in Flink's output. Given as"
                  + " ${env.NAME}, it is read from environment variable NAME on each process that"
                  + " uses it, and only the name travels in the job graph; NAME must be one the"
                  + " cluster's Flink configuration allows in"
                  + " 'delta.secrets.allowed-environment-variables'.");

  public static final ConfigOption<String> OAUTH_TOKEN_URI =
      ConfigOptions.key("uc.oauth.token-uri")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "OAuth 2.0 token endpoint for machine-to-machine authentication to Unity Catalog,"
                  + " instead of 'uc.token'. Tokens are renewed before they expire.");

  public static final ConfigOption<String> OAUTH_CLIENT_ID =
      ConfigOptions.key("uc.oauth.client-id")
          .stringType()
          .noDefaultValue()
          .withDescription("OAuth client id, with 'uc.oauth.token-uri'.");

  public static final ConfigOption<String> OAUTH_CLIENT_SECRET =
      ConfigOptions.key("uc.oauth.client-secret")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "OAuth client secret, with 'uc.oauth.token-uri'. Masked in Flink's output; ${env.NAME}"
                  + " reads it from environment variable NAME, as for 'uc.token'.");

  public static final ConfigOption<String> OAUTH_SCOPE =
      ConfigOptions.key("uc.oauth.scope")
          .stringType()
          .noDefaultValue()
          .withDescription("OAuth scope to request, if the token endpoint needs one.");

  public static final ConfigOption<CommitApi> COMMIT_API =
      ConfigOptions.key("uc.commit-api")
          .enumType(CommitApi.class)
          .defaultValue(CommitApi.AUTO)
          .withDescription(
              "The catalog API that ratifies commits: DELTA_V1 (/delta/v1, Unity Catalog 0.5 and"
                  + " later), LEGACY (/delta/preview/commits), or AUTO to use DELTA_V1 when the"
                  + " server offers it.");

  public static final ConfigOption<Duration> REQUEST_TIMEOUT =
      ConfigOptions.key("uc.request-timeout")
          .durationType()
          .defaultValue(UnityCatalogConnection.DEFAULT_REQUEST_TIMEOUT)
          .withDescription(
              "How long the connector's own Unity Catalog calls (table lookups, catalog browsing,"
                  + " schema DDL, table registration and deletion) may take to connect and to"
                  + " answer. Commits are bounded by Flink's checkpoint timeout instead.");

  /** Every option of this class. */
  public static final Set<ConfigOption<?>> ALL =
      Set.of(
          URI,
          TOKEN,
          OAUTH_TOKEN_URI,
          OAUTH_CLIENT_ID,
          OAUTH_CLIENT_SECRET,
          OAUTH_SCOPE,
          COMMIT_API,
          REQUEST_TIMEOUT);

  private UnityCatalogOptions() {}

  /** Whether {@code options} name a Unity Catalog server. */
  public static boolean isSet(ReadableConfig options) {
    return options.getOptional(URI).isPresent();
  }

  /**
   * The connection {@code options} describe: a static token, or the OAuth client credentials; never
   * both.
   *
   * @param owner what the options belong to, for messages, e.g. {@code "Table main.db.orders"}
   * @throws IllegalArgumentException naming the keys to set or to remove
   */
  public static UnityCatalogConnection connection(ReadableConfig options, String owner) {
    String uri =
        options
            .getOptional(URI)
            .orElseThrow(() -> new IllegalArgumentException(owner + " needs '" + URI.key() + "'."));
    Optional<String> token = options.getOptional(TOKEN);
    Optional<String> tokenUri = options.getOptional(OAUTH_TOKEN_URI);
    Optional<String> clientId = options.getOptional(OAUTH_CLIENT_ID);
    Optional<String> clientSecret = options.getOptional(OAUTH_CLIENT_SECRET);
    EnvironmentReferences references = EnvironmentReferences.ofCluster();
    references.check(owner, TOKEN.key(), token.orElse(null));
    references.check(owner, OAUTH_CLIENT_SECRET.key(), clientSecret.orElse(null));
    boolean oauth = tokenUri.isPresent() || clientId.isPresent() || clientSecret.isPresent();
    if (oauth && token.isPresent()) {
      throw new IllegalArgumentException(
          String.format(
              "%s sets both '%s' and OAuth options; authenticate with one of them.",
              owner, TOKEN.key()));
    }
    UnityCatalogConnection.Auth auth;
    if (!oauth) {
      auth = new UnityCatalogConnection.StaticToken(Secret.parse(token.orElse("")));
    } else if (tokenUri.isEmpty() || clientId.isEmpty() || clientSecret.isEmpty()) {
      throw new IllegalArgumentException(
          String.format(
              "%s needs all of '%s', '%s' and '%s' for OAuth.",
              owner, OAUTH_TOKEN_URI.key(), OAUTH_CLIENT_ID.key(), OAUTH_CLIENT_SECRET.key()));
    } else {
      auth =
          new UnityCatalogConnection.OAuthClientCredentials(
              java.net.URI.create(tokenUri.get()),
              clientId.get(),
              Secret.parse(clientSecret.get()),
              options.getOptional(OAUTH_SCOPE).orElse(null));
    }
    return new UnityCatalogConnection(
        java.net.URI.create(uri), auth, options.get(COMMIT_API), options.get(REQUEST_TIMEOUT));
  }
}
