/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.uc.internal;

import io.delta.storage.commit.Commit;
import io.delta.storage.commit.CommitFailedException;
import io.delta.storage.commit.TableIdentifier;
import io.delta.storage.commit.actions.AbstractDomainMetadata;
import io.delta.storage.commit.actions.AbstractMetadata;
import io.delta.storage.commit.actions.AbstractProtocol;
import io.delta.storage.commit.uccommitcoordinator.CommitLimitReachedException;
import io.delta.storage.commit.uccommitcoordinator.InvalidTargetTableException;
import io.delta.storage.commit.uccommitcoordinator.UCCommitCoordinatorException;
import io.delta.storage.commit.uccommitcoordinator.UCTokenBasedRestClient;
import io.delta.storage.commit.uniform.UniformMetadata;
import io.unitycatalog.client.ApiClient;
import io.unitycatalog.client.ApiException;
import io.unitycatalog.client.api.DeltaCommitsApi;
import io.unitycatalog.client.auth.TokenProvider;
import io.unitycatalog.client.model.ColumnInfos;
import io.unitycatalog.client.model.DeltaCommit;
import io.unitycatalog.client.model.DeltaCommitInfo;
import io.unitycatalog.client.model.DeltaCommitMetadataProperties;
import io.unitycatalog.client.model.DeltaMetadata;
import java.io.IOException;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * delta-storage's client of the legacy commit API ({@code /delta/preview/commits}), except that a
 * commit carrying new table metadata also sends the table's columns. delta-storage 4.4.0 sends the
 * description and properties but leaves the schema out, and Unity Catalog OSS 0.6.0 replaces the
 * table's columns only with those a commit sends, so without them the catalog kept listing the
 * columns the table was created with after any schema change. Every other call, and every commit
 * without new metadata, is delta-storage's own.
 *
 * <p>A failed commit is reported as delta-storage reports it (400 not retryable, 404 an invalid
 * target table, 409 a retryable conflict, 429 the unbackfilled-commit limit, anything else
 * retryable), so Kernel settles it the same way.
 */
final class LegacyCommitClient extends UCTokenBasedRestClient {

  private DeltaCommitsApi commits;

  LegacyCommitClient(String baseUri, TokenProvider tokens, ApiClient api) {
    super(baseUri, tokens, Map.of());
    this.commits = new DeltaCommitsApi(api);
  }

  @Override
  public void commit(
      String tableId,
      URI tableUri,
      TableIdentifier tableIdentifier,
      Optional<Commit> commit,
      Optional<Long> lastKnownBackfilledVersion,
      Optional<AbstractMetadata> oldMetadata,
      Optional<AbstractMetadata> newMetadata,
      Optional<AbstractProtocol> oldProtocol,
      Optional<AbstractProtocol> newProtocol,
      List<AbstractDomainMetadata> transactionDomainMetadata,
      Optional<UniformMetadata> uniform)
      throws IOException, CommitFailedException, UCCommitCoordinatorException {
    if (commit.isEmpty() || newMetadata.isEmpty() || uniform.isPresent()) {
      super.commit(
          tableId,
          tableUri,
          tableIdentifier,
          commit,
          lastKnownBackfilledVersion,
          oldMetadata,
          newMetadata,
          oldProtocol,
          newProtocol,
          transactionDomainMetadata,
          uniform);
      return;
    }
    if (commits == null) {
      throw new IllegalStateException("The Unity Catalog commit client has been closed.");
    }
    DeltaCommit request =
        new DeltaCommit()
            .tableId(tableId)
            .tableUri(tableUri.toString())
            .commitInfo(commitInfo(commit.get()))
            .metadata(metadata(newMetadata.get()));
    lastKnownBackfilledVersion.ifPresent(request::latestBackfilledVersion);
    try {
      commits.commit(request);
    } catch (ApiException e) {
      fail(e);
    }
  }

  @Override
  public void close() throws IOException {
    commits = null;
    super.close();
  }

  private static DeltaCommitInfo commitInfo(Commit commit) {
    return new DeltaCommitInfo()
        .version(commit.getVersion())
        .timestamp(commit.getCommitTimestamp())
        .fileName(commit.getFileStatus().getPath().getName())
        .fileSize(commit.getFileStatus().getLen())
        .fileModificationTimestamp(commit.getFileStatus().getModificationTime());
  }

  private static DeltaMetadata metadata(AbstractMetadata metadata) {
    DeltaMetadata sent =
        new DeltaMetadata()
            .description(metadata.getDescription())
            .schema(
                new ColumnInfos()
                    .columns(
                        CatalogColumns.of(
                            metadata.getSchemaString(), metadata.getPartitionColumns())));
    Map<String, String> properties = metadata.getConfiguration();
    if (properties != null && !properties.isEmpty()) {
      sent.properties(new DeltaCommitMetadataProperties().properties(properties));
    }
    return sent;
  }

  private static void fail(ApiException e)
      throws CommitFailedException, UCCommitCoordinatorException {
    String body = e.getResponseBody();
    switch (e.getCode()) {
      case 400 -> throw new CommitFailedException(false, false, "Invalid commit: " + body, e);
      case 404 -> throw new InvalidTargetTableException("Invalid Target Table: " + body);
      case 409 -> throw new CommitFailedException(true, true, "Commit conflict: " + body, e);
      case 429 -> throw new CommitLimitReachedException("Unbackfilled commit limit: " + body);
      default ->
          throw new CommitFailedException(
              true, false, "Commit failed (HTTP " + e.getCode() + "): " + body, e);
    }
  }
}
