/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.s3testkit;

import com.sun.net.httpserver.Headers;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * AWS Signature Version 4 as S3 checks it, written from the published signing rules: what a request
 * claims (access key, scope, signed headers, signature; from the {@code Authorization} header or,
 * for a presigned URL, from the {@code X-Amz-*} query parameters), and whether the secret key
 * registered for that access key produced the signature.
 *
 * <p>S3 differs from the generic rules in two places that matter here: the path is used as sent,
 * neither normalized nor encoded again, and the payload's hash is whatever {@code
 * x-amz-content-sha256} says (a presigned URL's is {@code UNSIGNED-PAYLOAD}).
 */
final class SigV4 {

  static final String ALGORITHM = "AWS4-HMAC-SHA256";
  static final String UNSIGNED_PAYLOAD = "UNSIGNED-PAYLOAD";
  static final String EMPTY_SHA256 = hex(sha256(new byte[0]));
  private static final DateTimeFormatter AMZ_DATE =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'");

  /** A request's signature claim. */
  record Claim(
      String accessKeyId,
      String scopeDate,
      String region,
      String service,
      String amzDate,
      List<String> signedHeaders,
      String signature,
      boolean presigned,
      long presignedSeconds,
      String sessionToken) {

    String scope() {
      return scopeDate + "/" + region + "/" + service + "/aws4_request";
    }

    Instant signedAt() throws S3Error {
      try {
        return LocalDateTime.parse(amzDate, AMZ_DATE).toInstant(ZoneOffset.UTC);
      } catch (DateTimeParseException e) {
        throw S3Error.accessDenied("X-Amz-Date '" + amzDate + "' is not yyyyMMddTHHmmssZ");
      }
    }
  }

  private SigV4() {}

  /** The claim of a request, or an error naming what is missing or malformed. */
  static Claim claim(Headers headers, Map<String, String> query) throws S3Error {
    String authorization = headers.getFirst("Authorization");
    if (authorization != null) {
      if (!authorization.startsWith(ALGORITHM + " ")) {
        throw S3Error.accessDenied(
            "Only " + ALGORITHM + " signatures are accepted, not '" + authorization.split(" ")[0]);
      }
      Map<String, String> parts = new TreeMap<>();
      for (String part : authorization.substring(ALGORITHM.length() + 1).split(",")) {
        int eq = part.indexOf('=');
        if (eq > 0) {
          parts.put(part.substring(0, eq).trim(), part.substring(eq + 1).trim());
        }
      }
      return claim(
          parts.get("Credential"),
          headers.getFirst("x-amz-date"),
          parts.get("SignedHeaders"),
          parts.get("Signature"),
          false,
          null,
          headers.getFirst("x-amz-security-token"));
    }
    if (query.containsKey("X-Amz-Signature")) {
      if (!ALGORITHM.equals(query.get("X-Amz-Algorithm"))) {
        throw S3Error.accessDenied("Only " + ALGORITHM + " presigned URLs are accepted");
      }
      return claim(
          query.get("X-Amz-Credential"),
          query.get("X-Amz-Date"),
          query.get("X-Amz-SignedHeaders"),
          query.get("X-Amz-Signature"),
          true,
          query.get("X-Amz-Expires"),
          query.get("X-Amz-Security-Token"));
    }
    throw S3Error.accessDenied("Anonymous requests are not accepted: sign them with a vended key");
  }

  private static Claim claim(
      String credential,
      String amzDate,
      String signedHeaders,
      String signature,
      boolean presigned,
      String expires,
      String token)
      throws S3Error {
    if (credential == null || signedHeaders == null || signature == null || amzDate == null) {
      throw S3Error.malformed("The signature lacks Credential, SignedHeaders, Signature or date");
    }
    String[] scope = credential.split("/");
    if (scope.length != 5 || !scope[4].equals("aws4_request")) {
      throw S3Error.malformed("Credential '" + credential + "' is not <key>/<date>/<region>/s3/..");
    }
    if (!amzDate.startsWith(scope[1])) {
      throw S3Error.malformed("The credential's date " + scope[1] + " is not that of " + amzDate);
    }
    long seconds = 0;
    if (presigned) {
      try {
        seconds = Long.parseLong(expires);
      } catch (NumberFormatException e) {
        throw S3Error.accessDenied("X-Amz-Expires '" + expires + "' is not a number of seconds");
      }
    }
    return new Claim(
        scope[0],
        scope[1],
        scope[2],
        scope[3],
        amzDate,
        Arrays.asList(signedHeaders.toLowerCase(java.util.Locale.ROOT).split(";")),
        signature,
        presigned,
        seconds,
        token);
  }

  /**
   * Whether {@code secretKey} signed the request: the canonical request is rebuilt from what
   * arrived and signed again.
   */
  static boolean matches(
      Claim claim,
      String secretKey,
      String method,
      String rawPath,
      String rawQuery,
      Headers headers,
      String payloadHash) {
    StringBuilder canonical = new StringBuilder();
    canonical.append(method).append('\n');
    canonical.append(rawPath == null || rawPath.isEmpty() ? "/" : rawPath).append('\n');
    canonical.append(canonicalQuery(rawQuery, claim.presigned())).append('\n');
    for (String name : claim.signedHeaders()) {
      List<String> values = headers.get(name);
      if (values == null) {
        return false;
      }
      List<String> trimmed = new ArrayList<>();
      for (String value : values) {
        trimmed.add(value.trim().replaceAll("\\s+", " "));
      }
      canonical.append(name).append(':').append(String.join(",", trimmed)).append('\n');
    }
    canonical.append('\n').append(String.join(";", claim.signedHeaders())).append('\n');
    canonical.append(payloadHash);
    String toSign =
        ALGORITHM
            + "\n"
            + claim.amzDate()
            + "\n"
            + claim.scope()
            + "\n"
            + hex(sha256(canonical.toString().getBytes(StandardCharsets.UTF_8)));
    String expected = hex(hmac(signingKey(claim, secretKey), toSign));
    return MessageDigest.isEqual(
        expected.getBytes(StandardCharsets.US_ASCII),
        claim.signature().toLowerCase(java.util.Locale.ROOT).getBytes(StandardCharsets.US_ASCII));
  }

  /** The key that signs for one day, region and service. */
  static byte[] signingKey(Claim claim, String secretKey) {
    byte[] key = hmac(("AWS4" + secretKey).getBytes(StandardCharsets.UTF_8), claim.scopeDate());
    key = hmac(key, claim.region());
    key = hmac(key, claim.service());
    return hmac(key, "aws4_request");
  }

  /** Query parameters decoded, for reading the presigned ones. */
  static Map<String, String> decodeQuery(String rawQuery) {
    Map<String, String> query = new TreeMap<>();
    if (rawQuery != null) {
      for (String pair : rawQuery.split("&")) {
        if (!pair.isEmpty()) {
          int eq = pair.indexOf('=');
          String name = eq < 0 ? pair : pair.substring(0, eq);
          query.put(decode(name), eq < 0 ? "" : decode(pair.substring(eq + 1)));
        }
      }
    }
    return query;
  }

  private static String canonicalQuery(String rawQuery, boolean presigned) {
    List<String[]> pairs = new ArrayList<>();
    if (rawQuery != null) {
      for (String pair : rawQuery.split("&")) {
        if (pair.isEmpty()) {
          continue;
        }
        int eq = pair.indexOf('=');
        String name = encode(decode(eq < 0 ? pair : pair.substring(0, eq)));
        String value = eq < 0 ? "" : encode(decode(pair.substring(eq + 1)));
        if (!(presigned && name.equals("X-Amz-Signature"))) {
          pairs.add(new String[] {name, value});
        }
      }
    }
    pairs.sort((a, b) -> a[0].equals(b[0]) ? a[1].compareTo(b[1]) : a[0].compareTo(b[0]));
    List<String> joined = new ArrayList<>();
    for (String[] pair : pairs) {
      joined.add(pair[0] + "=" + pair[1]);
    }
    return String.join("&", joined);
  }

  /** Percent-decoding as URIs have it ({@code +} stays a plus sign). */
  private static String decode(String text) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '%' && i + 2 < text.length()) {
        out.write(HexFormat.fromHexDigits(text, i + 1, i + 3));
        i += 2;
      } else {
        byte[] bytes = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
        out.write(bytes, 0, bytes.length);
      }
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  /** AWS's URI encoding: unreserved characters stay, every other byte becomes {@code %XX}. */
  static String encode(String text) {
    StringBuilder out = new StringBuilder();
    for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
      char c = (char) (b & 0xff);
      if ((c >= 'A' && c <= 'Z')
          || (c >= 'a' && c <= 'z')
          || (c >= '0' && c <= '9')
          || c == '-'
          || c == '_'
          || c == '.'
          || c == '~') {
        out.append(c);
      } else {
        out.append('%').append(HexFormat.of().withUpperCase().toHexDigits(b));
      }
    }
    return out.toString();
  }

  static byte[] hmac(byte[] key, String data) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return mac.doFinal(data.getBytes(StandardCharsets.UTF_8));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is missing from this JVM", e);
    }
  }

  static byte[] sha256(byte[] data) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(data);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }

  static String hex(byte[] bytes) {
    return HexFormat.of().formatHex(bytes);
  }
}
