package io.github.flinkdelta.sink.catalog;

import io.github.flinkdelta.sink.table.DeltaTableOptions;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import java.time.Duration;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.table.catalog.CommonCatalogOptions;

/**
 * Options of {@code CREATE CATALOG ... WITH ('type' = 'unitycatalog', ...)}. Storage options for
 * Hadoop (such as an S3 endpoint) are given with the prefix {@code hadoop.} ({@link
 * io.github.flinkdelta.sink.table.HadoopOptions}).
 */
@PublicEvolving
public final class UnityCatalogCatalogOptions {

  public static final ConfigOption<String> URI =
      ConfigOptions.key("uri")
          .stringType()
          .noDefaultValue()
          .withDescription("Base URI of the Unity Catalog server, e.g. https://uc.example.com.");

  public static final ConfigOption<String> TOKEN =
      ConfigOptions.key("token")
          .stringType()
          .noDefaultValue()
          .withDescription(DeltaTableOptions.UC_TOKEN.description());

  public static final ConfigOption<String> OAUTH_TOKEN_URI =
      ConfigOptions.key("oauth.token-uri")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "OAuth 2.0 token endpoint for machine-to-machine authentication, instead of"
                  + " 'token'. Tokens are renewed before they expire.");

  public static final ConfigOption<String> OAUTH_CLIENT_ID =
      ConfigOptions.key("oauth.client-id")
          .stringType()
          .noDefaultValue()
          .withDescription("OAuth client id, with 'oauth.token-uri'.");

  public static final ConfigOption<String> OAUTH_CLIENT_SECRET =
      ConfigOptions.key("oauth.client-secret")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "OAuth client secret, with 'oauth.token-uri'. Masked in Flink's output.");

  public static final ConfigOption<String> OAUTH_SCOPE =
      ConfigOptions.key("oauth.scope")
          .stringType()
          .noDefaultValue()
          .withDescription(DeltaTableOptions.UC_OAUTH_SCOPE.description());

  public static final ConfigOption<Duration> REQUEST_TIMEOUT =
      ConfigOptions.key("request-timeout")
          .durationType()
          .defaultValue(UnityCatalogConnection.DEFAULT_REQUEST_TIMEOUT)
          .withDescription(DeltaTableOptions.UC_REQUEST_TIMEOUT.description());

  public static final ConfigOption<String> CATALOG =
      ConfigOptions.key("catalog")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "The Unity Catalog catalog this Flink catalog shows. Defaults to the Flink"
                  + " catalog's name.");

  public static final ConfigOption<String> DEFAULT_DATABASE =
      ConfigOptions.key(CommonCatalogOptions.DEFAULT_DATABASE_KEY)
          .stringType()
          .defaultValue("default")
          .withDescription("The schema USE CATALOG starts in.");

  private UnityCatalogCatalogOptions() {}
}
