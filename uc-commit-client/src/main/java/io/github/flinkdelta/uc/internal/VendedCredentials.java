/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.uc.internal;

import io.github.flinkdelta.core.storage.StorageScopes;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import io.unitycatalog.client.ApiException;
import io.unitycatalog.client.auth.TokenProvider;
import io.unitycatalog.hadoop.UCCredentialHadoopConfs;
import java.net.URI;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;

/**
 * Storage access with the credentials Unity Catalog vends for a table: a Hadoop configuration whose
 * file system asks the catalog for temporary credentials and renews them before they expire ({@code
 * unitycatalog-hadoop}), so a job runs past any one credential's lifetime.
 *
 * <p>The configurations made here hold the catalog token and the vended keys. They live in memory
 * only, on the operator that opens the table; nothing of them is serialized into the job graph or
 * Flink state.
 */
final class VendedCredentials {

  private VendedCredentials() {}

  /**
   * {@code base} with credentials for a table the catalog has registered: READ ones need SELECT on
   * it, READ_WRITE ones MODIFY.
   */
  static Configuration forTable(
      UnityCatalogConnection connection,
      Configuration base,
      String tableId,
      String location,
      UCCredentialHadoopConfs.TableOperation operation) {
    return withCredentials(
        connection,
        base,
        location,
        "table " + tableId,
        builder -> builder.buildForTable(tableId, operation));
  }

  /**
   * {@code base} with credentials for a staging table, where version 0 of a new managed table is
   * written before the table is registered. The UC Delta API has its own staging credentials; older
   * servers vend them for the staging table's id.
   */
  static Configuration forStagingTable(
      UnityCatalogConnection connection,
      Configuration base,
      String stagingId,
      String location,
      boolean deltaApi) {
    return withCredentials(
        connection,
        base,
        location,
        "staging table " + stagingId,
        builder ->
            deltaApi
                ? builder.buildForStagingTable(stagingId, location)
                : builder.buildForTable(
                    stagingId, UCCredentialHadoopConfs.TableOperation.READ_WRITE));
  }

  private static Configuration withCredentials(
      UnityCatalogConnection connection,
      Configuration base,
      String location,
      String what,
      CredentialRequest request) {
    String scheme = URI.create(location).getScheme();
    if (scheme == null || scheme.equals("file")) {
      // Local storage needs no credentials; the catalog vends none for it.
      return base;
    }
    // unitycatalog-hadoop scopes file systems by vended credential itself, wrapping the scheme's
    // implementation it finds in the configuration: it gets Hadoop's, not the sink's scoped one.
    Configuration plain = StorageScopes.unscoped(base);
    UCCredentialHadoopConfs.Builder builder =
        UCCredentialHadoopConfs.builder(connection.endpoint().toString(), scheme)
            .tokenProvider(TokenProvider.create(connection.auth().tokenProviderConfig()))
            .hadoopConf(plain);
    Map<String, String> properties;
    try {
      properties = request.build(builder);
    } catch (ApiException | RuntimeException e) {
      throw UnityCatalogErrors.callFailed(
          connection, "vend storage credentials for " + what + " at " + location, e);
    }
    Configuration conf = new Configuration(plain);
    properties.forEach(conf::set);
    return conf;
  }

  @FunctionalInterface
  private interface CredentialRequest {
    Map<String, String> build(UCCredentialHadoopConfs.Builder builder) throws ApiException;
  }
}
