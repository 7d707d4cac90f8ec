/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.testkit;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.flink.annotation.PublicEvolving;

/**
 * A self-signed certificate for 127.0.0.1 and localhost, made with the JDK's {@code keytool}: a key
 * store for the server ({@link UnityCatalogServer.Builder#tls}) and a trust store holding only the
 * certificate, for clients ({@code -Djavax.net.ssl.trustStore}). Both are PKCS12.
 *
 * @param keyStore the server's key and certificate
 * @param trustStore the certificate alone
 * @param password the password of both stores
 */
@PublicEvolving
public record SelfSignedCertificate(Path keyStore, Path trustStore, char[] password) {

  /** Writes {@code server.p12} and {@code truststore.p12} into {@code directory}. */
  public static SelfSignedCertificate create(Path directory, String password) {
    Path keyStore = directory.resolve("server.p12");
    Path certificate = directory.resolve("server.cer");
    Path trustStore = directory.resolve("truststore.p12");
    keytool(
        "-genkeypair",
        "-alias",
        "uc-testkit",
        "-keyalg",
        "RSA",
        "-keysize",
        "2048",
        "-validity",
        "7",
        "-dname",
        "CN=127.0.0.1",
        "-ext",
        "SAN=ip:127.0.0.1,dns:localhost",
        "-storetype",
        "PKCS12",
        "-keystore",
        keyStore.toString(),
        "-storepass",
        password);
    keytool(
        "-exportcert",
        "-alias",
        "uc-testkit",
        "-keystore",
        keyStore.toString(),
        "-storepass",
        password,
        "-file",
        certificate.toString());
    keytool(
        "-importcert",
        "-noprompt",
        "-alias",
        "uc-testkit",
        "-file",
        certificate.toString(),
        "-storetype",
        "PKCS12",
        "-keystore",
        trustStore.toString(),
        "-storepass",
        password);
    return new SelfSignedCertificate(keyStore, trustStore, password.toCharArray());
  }

  private static void keytool(String... args) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
    command.addAll(List.of(args));
    try {
      Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
      String output = new String(process.getInputStream().readAllBytes());
      if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
        throw new IllegalStateException("keytool " + args[0] + " failed: " + output);
      }
    } catch (IOException e) {
      throw new IllegalStateException("Cannot run keytool from " + command.get(0), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while running keytool", e);
    }
  }
}
