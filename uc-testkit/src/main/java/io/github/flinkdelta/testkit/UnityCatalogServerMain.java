/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.testkit;

import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import org.apache.flink.annotation.PublicEvolving;

/**
 * Runs the test server standalone for local development:
 *
 * <pre>
 * java -jar uc-testkit-&lt;version&gt;-standalone.jar --port 8080 --storage-root /tmp/uc \
 *     [--state-dir /tmp/uc-state] [--token secret] [--tls-keystore server.p12 --tls-password pw]
 * </pre>
 *
 * <p>With {@code --tls-keystore} (a PKCS12 key store) it serves HTTPS.
 */
@PublicEvolving
public final class UnityCatalogServerMain {

  private UnityCatalogServerMain() {}

  public static void main(String[] args) throws Exception {
    if (System.getProperty("log4j2.configurationFile") == null) {
      System.setProperty("log4j2.configurationFile", "uc-testkit-log4j2.properties");
    }
    UnityCatalogServer.Builder builder = UnityCatalogServer.builder().port(8080);
    Path keyStore = null;
    char[] keyStorePassword = new char[0];
    for (int i = 0; i < args.length; i++) {
      String value = i + 1 < args.length ? args[i + 1] : null;
      switch (args[i]) {
        case "--port" -> builder.port(Integer.parseInt(require(args[i], value)));
        case "--storage-root" -> builder.storageRoot(Path.of(require(args[i], value)));
        case "--state-dir" -> builder.stateDirectory(Path.of(require(args[i], value)));
        case "--token" -> builder.token(require(args[i], value));
        case "--tls-keystore" -> keyStore = Path.of(require(args[i], value));
        case "--tls-password" -> keyStorePassword = require(args[i], value).toCharArray();
        default -> {
          System.err.println(
              "Unknown argument "
                  + args[i]
                  + ". Usage: --port N --storage-root DIR"
                  + " [--state-dir DIR] [--token TOKEN]"
                  + " [--tls-keystore PKCS12_FILE --tls-password PASSWORD]");
          System.exit(2);
        }
      }
      i++;
    }
    if (keyStore != null) {
      builder.tls(keyStore, keyStorePassword);
    }
    UnityCatalogServer server = builder.build().start();
    System.out.println("Unity Catalog test server: " + server.uri() + UnityCatalogServer.API_BASE);
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  server.close();
                  stopped.countDown();
                }));
    stopped.await();
  }

  private static String require(String flag, String value) {
    if (value == null) {
      throw new IllegalArgumentException(flag + " needs a value");
    }
    return value;
  }
}
