/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.s3testkit;

import java.nio.charset.StandardCharsets;

/** An S3 error answer: HTTP status, S3 error code and message, sent as S3's XML error body. */
final class S3Error extends Exception {

  private static final long serialVersionUID = 1L;

  private final int status;
  private final String code;

  S3Error(int status, String code, String message) {
    super(message, null, false, false);
    this.status = status;
    this.code = code;
  }

  static S3Error accessDenied(String message) {
    return new S3Error(403, "AccessDenied", message);
  }

  static S3Error signatureMismatch(String message) {
    return new S3Error(
        403,
        "SignatureDoesNotMatch",
        "The request signature we calculated does not match the signature you provided: "
            + message);
  }

  static S3Error malformed(String message) {
    return new S3Error(400, "AuthorizationHeaderMalformed", message);
  }

  int status() {
    return status;
  }

  String code() {
    return code;
  }

  byte[] body(String resource, String requestId) {
    String xml =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>"
            + escape(code)
            + "</Code><Message>"
            + escape(getMessage())
            + "</Message><Resource>"
            + escape(resource)
            + "</Resource><RequestId>"
            + requestId
            + "</RequestId></Error>";
    return xml.getBytes(StandardCharsets.UTF_8);
  }

  private static String escape(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}
