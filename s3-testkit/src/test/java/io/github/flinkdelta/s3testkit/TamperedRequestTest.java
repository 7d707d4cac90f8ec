/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.s3testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;

/**
 * Requests signed by the AWS SDK's signer and changed on the way: the proxy must notice a body that
 * is not the one signed, whole or in one chunk of a streaming upload, and store nothing of it.
 */
class TamperedRequestTest {

  @TempDir static Path directory;
  private static S3ProxyProcess s3;
  private static CredentialEnforcingProxy proxy;
  private static final HttpClient HTTP =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  @BeforeAll
  static void start() {
    s3 = S3ProxyProcess.startWithoutAuthorization(directory);
    s3.createBucket("lake");
    proxy = CredentialEnforcingProxy.start(s3.endpoint(), Clock.systemUTC());
    proxy.register("AKIDTAMPER", "secret-tamper", null, Instant.now().plusSeconds(600));
  }

  @AfterAll
  static void stop() {
    proxy.close();
    s3.close();
  }

  @Test
  void anUntouchedStreamingUploadIsStored() throws Exception {
    Signed signed = signed("whole", true);
    assertThat(new String(signed.body(), StandardCharsets.ISO_8859_1))
        .contains(";chunk-signature=");
    assertThat(send(signed, signed.body()).statusCode()).isEqualTo(200);
    assertThat(s3.bucketDirectory("lake").resolve("whole")).hasContent("payload of whole");
  }

  @Test
  void aChangedChunkOfAStreamingUploadIsRefused() throws Exception {
    Signed signed = signed("chunk", true);
    String text = new String(signed.body(), StandardCharsets.ISO_8859_1);
    byte[] tampered =
        text.replace("payload of chunk", "payload of chunK").getBytes(StandardCharsets.ISO_8859_1);
    assertThat(tampered).isNotEqualTo(signed.body());
    HttpResponse<String> answer = send(signed, tampered);
    assertThat(answer.statusCode()).isEqualTo(403);
    assertThat(answer.body()).contains("<Code>SignatureDoesNotMatch</Code>");
    assertThat(s3.bucketDirectory("lake").resolve("chunk")).doesNotExist();
  }

  @Test
  void aChangedBodyOfASignedPayloadIsRefused() throws Exception {
    Signed signed = signed("plain", false);
    byte[] tampered = "payload of plaiN".getBytes(StandardCharsets.UTF_8);
    HttpResponse<String> answer = send(signed, tampered);
    assertThat(answer.statusCode()).isEqualTo(400);
    assertThat(answer.body()).contains("<Code>XAmzContentSHA256Mismatch</Code>");
    assertThat(s3.bucketDirectory("lake").resolve("plain")).doesNotExist();
    assertThat(send(signed, signed.body()).statusCode()).isEqualTo(200);
  }

  private record Signed(SdkHttpRequest request, byte[] body) {}

  private static Signed signed(String key, boolean chunked) throws Exception {
    byte[] payload = ("payload of " + key).getBytes(StandardCharsets.UTF_8);
    SdkHttpRequest.Builder request =
        SdkHttpRequest.builder()
            .method(SdkHttpMethod.PUT)
            .uri(URI.create(proxy.endpoint() + "/lake/" + key));
    if (!chunked) {
      request.putHeader("x-amz-content-sha256", SigV4.hex(SigV4.sha256(payload)));
      request.putHeader("Content-Length", Integer.toString(payload.length));
    } else {
      request.putHeader("x-amz-decoded-content-length", Integer.toString(payload.length));
    }
    SignedRequest signed =
        AwsV4HttpSigner.create()
            .sign(
                r ->
                    r.identity(AwsCredentialsIdentity.create("AKIDTAMPER", "secret-tamper"))
                        .request(request.build())
                        .payload(ContentStreamProvider.fromByteArray(payload))
                        .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "s3")
                        .putProperty(AwsV4HttpSigner.REGION_NAME, "us-east-1")
                        .putProperty(AwsV4HttpSigner.PAYLOAD_SIGNING_ENABLED, true)
                        .putProperty(AwsV4HttpSigner.CHUNK_ENCODING_ENABLED, chunked));
    byte[] body;
    try (InputStream in = signed.payload().orElseThrow().newStream()) {
      body = in.readAllBytes();
    }
    return new Signed(signed.request(), body);
  }

  private static HttpResponse<String> send(Signed signed, byte[] body) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(signed.request().getUri())
            .PUT(HttpRequest.BodyPublishers.ofByteArray(body));
    for (Map.Entry<String, List<String>> header : signed.request().headers().entrySet()) {
      String name = header.getKey();
      if (!name.equalsIgnoreCase("Host") && !name.equalsIgnoreCase("Content-Length")) {
        header.getValue().forEach(v -> request.header(name, v));
      }
    }
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }
}
