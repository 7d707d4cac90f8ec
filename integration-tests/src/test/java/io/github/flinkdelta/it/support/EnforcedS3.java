/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.support;

import io.github.flinkdelta.s3testkit.CredentialEnforcingProxy;
import io.github.flinkdelta.s3testkit.S3ProxyProcess;
import io.github.flinkdelta.testkit.UnityCatalogServer;
import io.github.flinkdelta.testkit.VendedS3Credential;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * S3 for tests whose only keys are the ones the catalog vends: s3proxy without authorization behind
 * a {@link CredentialEnforcingProxy}, which accepts each vended key until its expiry and refuses it
 * after with {@code 403 ExpiredToken}. The catalog test server registers every key it vends here
 * ({@link #vendDistinctKeys}).
 */
public final class EnforcedS3 implements AutoCloseable {

  private final S3ProxyProcess s3;
  private final CredentialEnforcingProxy gate;
  private final List<VendedS3Credential> vended = new CopyOnWriteArrayList<>();

  private EnforcedS3(S3ProxyProcess s3, CredentialEnforcingProxy gate) {
    this.s3 = s3;
    this.gate = gate;
  }

  public static EnforcedS3 start(Path directory, String bucket) {
    S3ProxyProcess s3 = S3ProxyProcess.startWithoutAuthorization(directory);
    s3.createBucket(bucket);
    return new EnforcedS3(s3, CredentialEnforcingProxy.start(s3));
  }

  /** {@code catalog} vending a new key on every request, each registered here as it is vended. */
  public UnityCatalogServer.Builder vendDistinctKeys(
      UnityCatalogServer.Builder catalog, Duration lifetime) {
    return catalog.distinctS3Credentials(lifetime).onS3CredentialVended(this::register);
  }

  private void register(VendedS3Credential credential) {
    gate.register(
        credential.accessKeyId(),
        credential.secretAccessKey(),
        credential.sessionToken(),
        credential.expiresAt());
    vended.add(credential);
  }

  /** The proxy: its figures per key, and the requests it forwarded. */
  public CredentialEnforcingProxy gate() {
    return gate;
  }

  /** Every credential vended so far, oldest first. */
  public List<VendedS3Credential> vended() {
    return List.copyOf(vended);
  }

  /** The figures of the keys vended since {@code first} (an index into {@link #vended()}). */
  public List<CredentialEnforcingProxy.KeyStats> statsSince(int first) {
    return vended().subList(first, vended.size()).stream()
        .map(c -> Objects.requireNonNull(gate.stats(c.accessKeyId())))
        .toList();
  }

  public URI endpoint() {
    return gate.endpoint();
  }

  public Path bucketDirectory(String bucket) {
    return s3.bucketDirectory(bucket);
  }

  /** Where S3 is, for S3A; the keys come from the catalog, never from here. */
  public Map<String, String> storageOptions() {
    return Map.of(
        "fs.s3a.endpoint", endpoint().toString(),
        "fs.s3a.endpoint.region", "us-east-1",
        "fs.s3a.path.style.access", "true",
        "fs.s3a.connection.ssl.enabled", "false");
  }

  @Override
  public void close() {
    gate.close();
    s3.close();
  }
}
