/*
 * Copyright 2026 the flink-delta authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
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
