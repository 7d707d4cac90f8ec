package io.github.flinkdelta.it;

import io.github.flinkdelta.testkit.UnityCatalogServer;
import io.github.flinkdelta.uc.Secret;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/** The contract against the embedded test server. */
class UnityCatalogContractOnTestServerITCase extends UnityCatalogContract {

  @TempDir static Path dir;

  private static UnityCatalogServer server;

  @BeforeAll
  static void start() throws Exception {
    server = UnityCatalogServer.builder().storageRoot(dir).token("contract-token").build().start();
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @Override
  UnityCatalogConnection connection() {
    return new UnityCatalogConnection(server.uri(), Secret.of("contract-token"));
  }

  @Override
  String catalog() {
    return "main";
  }

  @Override
  String schema() {
    return "default";
  }
}
