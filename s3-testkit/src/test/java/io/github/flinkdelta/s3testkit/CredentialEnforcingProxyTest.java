/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.s3testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/**
 * The proxy against the AWS SDK's own signer: requests the SDK signs with a registered key pass
 * (plain, streamed in signed chunks, multipart, presigned), and each broken promise of a credential
 * is refused with S3's error code, an expired key above all.
 */
class CredentialEnforcingProxyTest {

  @TempDir static Path directory;
  private static S3ProxyProcess s3;
  private static final ShiftedClock CLOCK = new ShiftedClock();
  private static CredentialEnforcingProxy proxy;

  @BeforeAll
  static void start() {
    s3 = S3ProxyProcess.startWithoutAuthorization(directory);
    s3.createBucket("lake");
    proxy = CredentialEnforcingProxy.start(s3.endpoint(), CLOCK);
  }

  @AfterAll
  static void stop() {
    proxy.close();
    s3.close();
  }

  @BeforeEach
  void resetClock() {
    CLOCK.shift = Duration.ZERO;
  }

  @Test
  void aRegisteredKeyReadsAndWritesThroughTheProxy() {
    proxy.register("AKIDLIVE", "secret-live", "token-live", Instant.now().plusSeconds(600));
    try (S3Client client = client(session("AKIDLIVE", "secret-live", "token-live"))) {
      client.putObject(b -> b.bucket("lake").key("dir/a b+c.txt"), RequestBody.fromString("hello"));
      assertThat(client.getObjectAsBytes(b -> b.bucket("lake").key("dir/a b+c.txt")).asUtf8String())
          .isEqualTo("hello");
      assertThat(client.listObjectsV2(b -> b.bucket("lake").prefix("dir/")).contents())
          .extracting(o -> o.key())
          .containsExactly("dir/a b+c.txt");
      assertThat(client.headObject(b -> b.bucket("lake").key("dir/a b+c.txt")).contentLength())
          .isEqualTo(5);
      client.deleteObject(b -> b.bucket("lake").key("dir/a b+c.txt"));
    }
    assertThat(s3.bucketDirectory("lake").resolve("dir/a b+c.txt")).doesNotExist();
    assertThat(proxy.stats("AKIDLIVE").accepted()).isEqualTo(5);
  }

  @Test
  void aMultipartUploadKeepsEveryByte() {
    proxy.registerPermanent("AKIDMULTI", "secret-multi");
    byte[] part = new byte[5 * 1024 * 1024];
    Arrays.fill(part, (byte) 7);
    try (S3Client client = client(AwsBasicCredentials.create("AKIDMULTI", "secret-multi"))) {
      String upload = client.createMultipartUpload(b -> b.bucket("lake").key("big")).uploadId();
      String one =
          client
              .uploadPart(
                  b -> b.bucket("lake").key("big").uploadId(upload).partNumber(1),
                  RequestBody.fromBytes(part))
              .eTag();
      String two =
          client
              .uploadPart(
                  b -> b.bucket("lake").key("big").uploadId(upload).partNumber(2),
                  RequestBody.fromString("tail"))
              .eTag();
      client.completeMultipartUpload(
          b ->
              b.bucket("lake")
                  .key("big")
                  .uploadId(upload)
                  .multipartUpload(
                      m ->
                          m.parts(
                              CompletedPart.builder().partNumber(1).eTag(one).build(),
                              CompletedPart.builder().partNumber(2).eTag(two).build())));
      byte[] read = client.getObjectAsBytes(b -> b.bucket("lake").key("big")).asByteArray();
      assertThat(read).hasSize(part.length + 4);
      assertThat(Arrays.copyOfRange(read, 0, part.length)).isEqualTo(part);
    }
  }

  @Test
  void aKeyUsedAfterItsExpiryIsRefusedWithExpiredToken() {
    Instant expiry = Instant.now().plusSeconds(60);
    proxy.register("AKIDSHORT", "secret-short", "token-short", expiry);
    try (S3Client client = client(session("AKIDSHORT", "secret-short", "token-short"))) {
      client.putObject(b -> b.bucket("lake").key("short"), RequestBody.fromString("before"));
      CLOCK.shift = Duration.ofSeconds(61);
      assertThatThrownBy(
              () -> client.putObject(b -> b.bucket("lake").key("short"), RequestBody.empty()))
          .isInstanceOfSatisfying(S3Exception.class, e -> assertRefused(e, 403, "ExpiredToken"));
      assertThatThrownBy(() -> client.getObjectAsBytes(b -> b.bucket("lake").key("short")))
          .isInstanceOfSatisfying(S3Exception.class, e -> assertRefused(e, 403, "ExpiredToken"));
    }
    CredentialEnforcingProxy.KeyStats stats = proxy.stats("AKIDSHORT");
    assertThat(stats.accepted()).isEqualTo(1);
    assertThat(stats.refusedExpired()).isGreaterThanOrEqualTo(2);
    assertThat(stats.lastAccepted()).isBefore(expiry);
    assertThat(proxy.acceptedAfterExpiry()).isZero();
    // The refused write never reached S3.
    assertThat(s3.bucketDirectory("lake").resolve("short")).hasContent("before");
  }

  @Test
  void aPresignedUrlOfAnExpiredKeyIsRefused() throws Exception {
    proxy.register("AKIDPRESIGN", "secret-presign", null, Instant.now().plusSeconds(60));
    try (S3Client client = client(AwsBasicCredentials.create("AKIDPRESIGN", "secret-presign"))) {
      client.putObject(b -> b.bucket("lake").key("shared"), RequestBody.fromString("presigned"));
    }
    URL url;
    try (S3Presigner presigner =
        S3Presigner.builder()
            .endpointOverride(proxy.endpoint())
            .region(Region.US_EAST_1)
            .serviceConfiguration(S3Configuration.builder().pathStyleAccessEnabled(true).build())
            .credentialsProvider(
                StaticCredentialsProvider.create(
                    AwsBasicCredentials.create("AKIDPRESIGN", "secret-presign")))
            .build()) {
      url =
          presigner
              .presignGetObject(
                  p ->
                      p.signatureDuration(Duration.ofMinutes(5))
                          .getObjectRequest(g -> g.bucket("lake").key("shared")))
              .url();
    }
    HttpURLConnection ok = (HttpURLConnection) url.openConnection();
    assertThat(ok.getResponseCode()).isEqualTo(200);
    assertThat(new String(ok.getInputStream().readAllBytes(), StandardCharsets.UTF_8))
        .isEqualTo("presigned");
    CLOCK.shift = Duration.ofSeconds(61);
    HttpURLConnection late = (HttpURLConnection) url.openConnection();
    assertThat(late.getResponseCode()).isEqualTo(403);
    assertThat(new String(late.getErrorStream().readAllBytes(), StandardCharsets.UTF_8))
        .contains("<Code>ExpiredToken</Code>");
  }

  @Test
  void anUnknownKeyAWrongSecretAndAWrongTokenAreRefused() {
    proxy.register("AKIDTOKEN", "secret-token", "token-right", Instant.now().plusSeconds(600));
    long unknownBefore = proxy.refusedUnknownKey();
    try (S3Client client = client(AwsBasicCredentials.create("AKIDNEVER", "whatever"))) {
      assertThatThrownBy(() -> client.listObjectsV2(b -> b.bucket("lake")))
          .isInstanceOfSatisfying(
              S3Exception.class, e -> assertRefused(e, 403, "InvalidAccessKeyId"));
    }
    assertThat(proxy.refusedUnknownKey()).isEqualTo(unknownBefore + 1);
    try (S3Client client = client(session("AKIDTOKEN", "secret-wrong", "token-right"))) {
      assertThatThrownBy(() -> client.listObjectsV2(b -> b.bucket("lake")))
          .isInstanceOfSatisfying(
              S3Exception.class, e -> assertRefused(e, 403, "SignatureDoesNotMatch"));
    }
    try (S3Client client = client(session("AKIDTOKEN", "secret-token", "token-wrong"))) {
      assertThatThrownBy(() -> client.listObjectsV2(b -> b.bucket("lake")))
          .isInstanceOfSatisfying(S3Exception.class, e -> assertRefused(e, 403, "InvalidToken"));
    }
    try (S3Client client = client(AwsBasicCredentials.create("AKIDTOKEN", "secret-token"))) {
      assertThatThrownBy(() -> client.listObjectsV2(b -> b.bucket("lake")))
          .isInstanceOfSatisfying(S3Exception.class, e -> assertRefused(e, 403, "InvalidToken"));
    }
    CredentialEnforcingProxy.KeyStats stats = proxy.stats("AKIDTOKEN");
    assertThat(stats.accepted()).isZero();
    assertThat(stats.refusedOther()).isEqualTo(3);
    assertThat(stats.refusedExpired()).isZero();
  }

  private static void assertRefused(S3Exception e, int status, String code) {
    assertThat(e.statusCode()).isEqualTo(status);
    assertThat(e.awsErrorDetails().errorCode()).isEqualTo(code);
  }

  private static AwsSessionCredentials session(String key, String secret, String token) {
    return AwsSessionCredentials.create(key, secret, token);
  }

  private static S3Client client(AwsCredentials credentials) {
    return S3Client.builder()
        .endpointOverride(proxy.endpoint())
        .region(Region.US_EAST_1)
        .forcePathStyle(true)
        // s3proxy answers GETs asking for checksums (x-amz-checksum-mode) 501 Not Implemented.
        .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
        .credentialsProvider(StaticCredentialsProvider.create(credentials))
        // Refusals are answers, not glitches: do not retry them.
        .overrideConfiguration(o -> o.retryStrategy(r -> r.maxAttempts(1)))
        .build();
  }

  /** The system clock, moved forward by {@link #shift}. */
  private static final class ShiftedClock extends Clock {
    volatile Duration shift = Duration.ZERO;

    @Override
    public java.time.ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return Instant.now().plus(shift);
    }
  }
}
