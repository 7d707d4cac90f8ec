/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.s3testkit;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;
import java.util.zip.Checksum;

/**
 * The {@code aws-chunked} body of a streaming upload ({@code x-amz-content-sha256} of {@code
 * STREAMING-...}), taken apart into the object's bytes: each chunk's signature is checked against
 * the chain that starts at the request's own signature, and a trailing CRC32 or CRC32C checksum
 * against the bytes. The trailer's own signature is not checked (the checksum it covers is).
 */
final class AwsChunkedBody {

  static final String SIGNED = "STREAMING-AWS4-HMAC-SHA256-PAYLOAD";
  static final String SIGNED_TRAILER = "STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER";
  static final String UNSIGNED_TRAILER = "STREAMING-UNSIGNED-PAYLOAD-TRAILER";

  private final byte[] body;
  private int position;

  private AwsChunkedBody(byte[] body) {
    this.body = body;
  }

  static boolean isStreaming(String contentSha256) {
    return contentSha256 != null && contentSha256.startsWith("STREAMING-");
  }

  /** The object's bytes, or an error saying which chunk did not hold. */
  static byte[] decode(byte[] body, String mode, SigV4.Claim claim, String secretKey)
      throws S3Error {
    boolean signed = mode.equals(SIGNED) || mode.equals(SIGNED_TRAILER);
    if (!signed && !mode.equals(UNSIGNED_TRAILER)) {
      throw new S3Error(400, "InvalidArgument", "Unsupported x-amz-content-sha256 " + mode);
    }
    byte[] key = signed ? SigV4.signingKey(claim, secretKey) : null;
    String previous = claim.signature();
    AwsChunkedBody in = new AwsChunkedBody(body);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    while (true) {
      String header = in.line();
      int semicolon = header.indexOf(';');
      int size;
      try {
        size = Integer.parseInt(semicolon < 0 ? header : header.substring(0, semicolon), 16);
      } catch (NumberFormatException e) {
        throw new S3Error(400, "IncompleteBody", "Bad chunk header '" + header + "'");
      }
      if (size < 0 || in.position + size > body.length) {
        throw new S3Error(400, "IncompleteBody", "A chunk runs past the body's end");
      }
      byte[] chunk = new byte[size];
      System.arraycopy(body, in.position, chunk, 0, size);
      in.position += size;
      if (signed) {
        String marker = ";chunk-signature=";
        if (semicolon < 0 || !header.startsWith(marker, semicolon)) {
          throw S3Error.signatureMismatch("a chunk of a signed upload carries no signature");
        }
        String toSign =
            "AWS4-HMAC-SHA256-PAYLOAD\n"
                + claim.amzDate()
                + "\n"
                + claim.scope()
                + "\n"
                + previous
                + "\n"
                + SigV4.EMPTY_SHA256
                + "\n"
                + SigV4.hex(SigV4.sha256(chunk));
        String expected = SigV4.hex(SigV4.hmac(key, toSign));
        String given = header.substring(semicolon + marker.length()).trim();
        if (!MessageDigest.isEqual(expected.getBytes(), given.getBytes())) {
          throw S3Error.signatureMismatch("the signature of a chunk does not match");
        }
        previous = given;
      }
      if (size == 0) {
        checkChecksums(in.trailer(), out.toByteArray());
        return out.toByteArray();
      }
      out.write(chunk, 0, size);
      if (!in.line().isEmpty()) {
        throw new S3Error(400, "IncompleteBody", "A chunk is longer than its header says");
      }
    }
  }

  private Map<String, String> trailer() throws S3Error {
    Map<String, String> trailer = new LinkedHashMap<>();
    while (position < body.length) {
      String line = line();
      if (line.isEmpty()) {
        break;
      }
      int colon = line.indexOf(':');
      if (colon > 0) {
        trailer.put(
            line.substring(0, colon).trim().toLowerCase(), line.substring(colon + 1).trim());
      }
    }
    return trailer;
  }

  /**
   * Checks the CRC32 and CRC32C checksums among {@code fields} (lower-case names: a trailer's, or a
   * request's headers) against {@code data}; other algorithms are not checked.
   */
  static void checkChecksums(Map<String, String> fields, byte[] data) throws S3Error {
    check(fields.get("x-amz-checksum-crc32"), new CRC32(), data, "CRC32");
    check(fields.get("x-amz-checksum-crc32c"), new CRC32C(), data, "CRC32C");
  }

  private static void check(String expected, Checksum checksum, byte[] data, String name)
      throws S3Error {
    if (expected == null) {
      return;
    }
    checksum.update(data, 0, data.length);
    byte[] value = ByteBuffer.allocate(4).putInt((int) checksum.getValue()).array();
    if (!Base64.getEncoder().encodeToString(value).equals(expected)) {
      throw new S3Error(
          400, "BadDigest", "The " + name + " you specified did not match the calculated checksum");
    }
  }

  private String line() throws S3Error {
    for (int i = position; i + 1 < body.length; i++) {
      if (body[i] == '\r' && body[i + 1] == '\n') {
        String line = new String(body, position, i - position, StandardCharsets.US_ASCII);
        position = i + 2;
        return line;
      }
    }
    throw new S3Error(400, "IncompleteBody", "The chunked body ends in the middle of a line");
  }
}
