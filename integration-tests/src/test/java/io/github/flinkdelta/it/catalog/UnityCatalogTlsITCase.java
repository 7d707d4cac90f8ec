/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkdelta.it.support.CatalogReads;
import io.github.flinkdelta.it.support.FailingMapper;
import io.github.flinkdelta.it.support.FaultCounter;
import io.github.flinkdelta.it.support.FlinkCluster;
import io.github.flinkdelta.it.support.TestRows;
import io.github.flinkdelta.sink.DeltaSink;
import io.github.flinkdelta.testkit.SelfSignedCertificate;
import io.github.flinkdelta.testkit.UnityCatalogServer;
import io.github.flinkdelta.uc.Secret;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.testutils.junit.SharedObjectsExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Unity Catalog over HTTPS with a self-signed certificate, trusted the way a Flink deployment
 * trusts it: through the JVM trust store ({@code -Djavax.net.ssl.trustStore}). Every catalog client
 * of the job (lookups, Kernel's commit client, credential vending) uses the JVM's default TLS
 * context, so this runs in a JVM of its own whose trust store holds only the test certificate (see
 * the {@code tls} execution in this module's pom); the test writes that certificate before anything
 * in the JVM opens a TLS connection.
 */
class UnityCatalogTlsITCase {

  @RegisterExtension static final FlinkCluster FLINK = FlinkCluster.create();

  @RegisterExtension final SharedObjectsExtension shared = SharedObjectsExtension.create();
  private final FaultCounter injected = FaultCounter.in(shared);

  private static final String TOKEN = "tls-token";

  private static SelfSignedCertificate trusted;

  @TempDir Path dir;

  @BeforeAll
  static void writeTheTrustedCertificate() throws Exception {
    String trustStore = System.getProperty("javax.net.ssl.trustStore");
    assertThat(trustStore)
        .as("run in the 'tls' surefire execution, which sets -Djavax.net.ssl.trustStore")
        .isNotNull();
    Path directory = Path.of(trustStore).getParent();
    Files.createDirectories(directory);
    Files.deleteIfExists(directory.resolve("server.p12"));
    Files.deleteIfExists(directory.resolve("truststore.p12"));
    trusted =
        SelfSignedCertificate.create(
            directory, System.getProperty("javax.net.ssl.trustStorePassword"));
    assertThat(trusted.trustStore()).isEqualTo(Path.of(trustStore));
  }

  @Test
  void aJobAndTheSqlCatalogWorkAgainstAnHttpsCatalogWithATrustedCertificate() throws Exception {
    try (UnityCatalogServer server = server(trusted)) {
      assertThat(server.uri().getScheme()).isEqualTo("https");
      UnityCatalogConnection connection =
          new UnityCatalogConnection(server.uri(), Secret.of(TOKEN));
      long count = 2_000;
      StreamExecutionEnvironment env = FLINK.job().checkpointEveryMillis(150).restarts(3).env();
      TestRows.source(env, count, 2_000, 3)
          .map(new FailingMapper(injected, 1, 700))
          .sinkTo(
              DeltaSink.builder()
                  .unityCatalog(connection)
                  .tableName("main.default.over_tls")
                  .rowType(TestRows.TYPE)
                  .partitionColumns("bucket")
                  .build());
      env.execute("uc over tls");

      assertThat(injected.count()).isPositive();
      CatalogReads.Read read = CatalogReads.read(connection, "main.default.over_tls");
      assertThat(read.rows()).containsExactlyInAnyOrderElementsOf(TestRows.expected(count, 3));
      assertThat(read.version()).isEqualTo(server.latestVersion("main.default.over_tls"));

      StreamTableEnvironment sql =
          StreamTableEnvironment.create(
              FLINK.job().checkpointEveryMillis(200).parallelism(1).env());
      sql.executeSql(
          "CREATE CATALOG uc WITH ('type' = 'unitycatalog', 'uc.uri' = '"
              + server.uri()
              + "', 'uc.token' = '"
              + TOKEN
              + "', 'catalog' = 'main')");
      sql.executeSql("CREATE TABLE uc.`default`.notes (id BIGINT, note STRING)");
      sql.executeSql("INSERT INTO uc.`default`.notes VALUES (1, 'over'), (2, 'tls')").await();
      assertThat(CatalogReads.rows(connection, "main.default.notes"))
          .containsExactlyInAnyOrder(java.util.List.of(1L, "over"), java.util.List.of(2L, "tls"));
    }
  }

  @Test
  void anUntrustedCertificateFailsNamingTheServerAndTheTrustStore() throws Exception {
    SelfSignedCertificate untrusted = SelfSignedCertificate.create(dir, "other-password");
    try (UnityCatalogServer server = server(untrusted)) {
      assertThatThrownBy(
              () ->
                  DeltaSink.builder()
                      .unityCatalog(new UnityCatalogConnection(server.uri(), Secret.of(TOKEN)))
                      .tableName("main.default.t")
                      .rowType(TestRows.TYPE)
                      .build())
          .hasMessageContaining("Unity Catalog at " + server.uri())
          .hasMessageContaining("does not trust the server's TLS certificate")
          .hasMessageContaining("javax.net.ssl.trustStore")
          .satisfies(e -> assertThat(e.toString()).doesNotContain(TOKEN));
    }
  }

  private UnityCatalogServer server(SelfSignedCertificate certificate) throws Exception {
    return UnityCatalogServer.builder()
        .storageRoot(dir.resolve("storage"))
        .token(TOKEN)
        .tls(certificate.keyStore(), certificate.password())
        .build()
        .start();
  }
}
