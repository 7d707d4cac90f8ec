package io.github.flinkdelta.sink.table;

import io.github.flinkdelta.uc.UnityCatalogConnection;
import java.time.Duration;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

/**
 * Where a {@code 'connector' = 'delta'} table lives: a path, or a Unity Catalog table. The write
 * options are {@link io.github.flinkdelta.core.config.DeltaSinkOptions}.
 */
@PublicEvolving
public final class DeltaTableOptions {

  public static final ConfigOption<String> TABLE_PATH =
      ConfigOptions.key("table-path")
          .stringType()
          .noDefaultValue()
          .withDescription("Root location of a Delta table on a path, e.g. s3a://bucket/events.");

  public static final ConfigOption<String> UC_URI =
      ConfigOptions.key("uc.uri")
          .stringType()
          .noDefaultValue()
          .withDescription("Base URI of the Unity Catalog server that holds 'uc.table'.");

  public static final ConfigOption<String> UC_TOKEN =
      ConfigOptions.key("uc.token")
          .stringType()
          .noDefaultValue()
          .withDescription("Bearer token for the Unity Catalog server. Masked in Flink's output.");

  public static final ConfigOption<String> UC_TABLE =
      ConfigOptions.key("uc.table")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "Unity Catalog table, catalog.schema.table, written instead of 'table-path'.");

  public static final ConfigOption<String> UC_OAUTH_TOKEN_URI =
      ConfigOptions.key("uc.oauth.token-uri")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "OAuth 2.0 token endpoint for machine-to-machine authentication to Unity Catalog,"
                  + " instead of 'uc.token'. Tokens are renewed before they expire.");

  public static final ConfigOption<String> UC_OAUTH_CLIENT_ID =
      ConfigOptions.key("uc.oauth.client-id")
          .stringType()
          .noDefaultValue()
          .withDescription("OAuth client id, with 'uc.oauth.token-uri'.");

  public static final ConfigOption<String> UC_OAUTH_CLIENT_SECRET =
      ConfigOptions.key("uc.oauth.client-secret")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "OAuth client secret, with 'uc.oauth.token-uri'. Masked in Flink's output.");

  public static final ConfigOption<String> UC_OAUTH_SCOPE =
      ConfigOptions.key("uc.oauth.scope")
          .stringType()
          .noDefaultValue()
          .withDescription("OAuth scope to request, if the token endpoint needs one.");

  public static final ConfigOption<Duration> UC_REQUEST_TIMEOUT =
      ConfigOptions.key("uc.request-timeout")
          .durationType()
          .defaultValue(UnityCatalogConnection.DEFAULT_REQUEST_TIMEOUT)
          .withDescription(
              "How long the connector's own Unity Catalog calls (table lookups, catalog browsing,"
                  + " schema DDL, table registration and deletion) may take to connect and to"
                  + " answer. Commits are bounded by Flink's checkpoint timeout instead.");

  private DeltaTableOptions() {}
}
