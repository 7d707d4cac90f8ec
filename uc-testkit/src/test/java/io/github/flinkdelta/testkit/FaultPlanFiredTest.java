/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.testkit;

import static io.github.flinkdelta.testkit.CommitRulesTest.assertStatus;
import static io.github.flinkdelta.testkit.CommitRulesTest.commitRequest;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.unitycatalog.client.ApiClient;
import io.unitycatalog.client.api.CatalogsApi;
import io.unitycatalog.client.api.DeltaCommitsApi;
import io.unitycatalog.client.model.TableInfo;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The fault plan counts the faults that fired, not those armed. */
class FaultPlanFiredTest {

  private static final String LIST = "GET /catalogs";

  @TempDir Path dir;

  @Test
  void aFailureReplacedOrClearedBeforeAnyCallDidNotFire() throws Exception {
    try (UnityCatalogServer server =
        UnityCatalogServer.builder().storageRoot(dir).build().start()) {
      CatalogsApi catalogs = new CatalogsApi(TestClients.client(server, null));
      FaultPlan faults = server.faults();

      faults.failNext(LIST, 2, 503).failNext(LIST, 1, 500);
      assertThat(faults.failuresFired(LIST)).isZero();
      assertStatus(() -> catalogs.listCatalogs(null, null), 500);
      catalogs.listCatalogs(null, null);
      assertThat(faults.failuresFired(LIST)).isEqualTo(1);
      assertThat(faults.failedCalls(LIST)).isEqualTo(1);

      faults.failNext(LIST, 2, 429);
      assertStatus(() -> catalogs.listCatalogs(null, null), 429);
      assertStatus(() -> catalogs.listCatalogs(null, null), 429);
      catalogs.listCatalogs(null, null);
      assertThat(faults.failuresFired(LIST)).isEqualTo(2);
      assertThat(faults.failedCalls(LIST)).isEqualTo(3);

      faults.failNext(LIST, 1, 503).clear();
      catalogs.listCatalogs(null, null);
      assertThat(faults.failuresFired(LIST)).isEqualTo(2);
      assertThat(faults.failedCalls(LIST)).isEqualTo(3);
      assertThat(faults.calls(LIST)).isEqualTo(6);
    }
  }

  @Test
  void aDroppedResponseFiresOnlyWhenACallIsAppliedAndLost() throws Exception {
    try (UnityCatalogServer server =
        UnityCatalogServer.builder().storageRoot(dir).build().start()) {
      ApiClient client = TestClients.client(server, null);
      TableInfo table = TestClients.createManagedTable(client, "main", "default", "t");
      DeltaCommitsApi commits = new DeltaCommitsApi(client);
      String endpoint = "POST /delta/preview/commits";
      FaultPlan faults = server.faults();

      // Replaced before any call: the second plan drops one response, the first never fired.
      faults.dropResponseOfNext(endpoint, 3).dropResponseOfNext(endpoint, 1);
      // A failure answers first; a drop waits for a call that is applied.
      faults.failNext(endpoint, 1, 503);
      assertStatus(
          () ->
              commits.commit(
                  commitRequest(table.getTableId(), table.getStorageLocation(), 1, "a.json")),
          503);
      assertThat(faults.dropsFired(endpoint)).isZero();
      assertThatThrownBy(
              () ->
                  commits.commit(
                      commitRequest(table.getTableId(), table.getStorageLocation(), 1, "a.json")))
          .isInstanceOf(Exception.class);
      assertThat(server.latestVersion("main.default.t")).isEqualTo(1);
      commits.commit(commitRequest(table.getTableId(), table.getStorageLocation(), 2, "b.json"));

      assertThat(faults.dropsFired(endpoint)).isEqualTo(1);
      assertThat(faults.droppedCalls(endpoint)).isEqualTo(1);
      assertThat(faults.failuresFired(endpoint)).isEqualTo(1);
      assertThat(faults.calls(endpoint)).isEqualTo(3);
    }
  }
}
