/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.testkit;

/** The answer to a call: status, content type and body. */
record ApiResponse(int status, String contentType, byte[] body) {

  static ApiResponse json(byte[] body) {
    return new ApiResponse(200, "application/json", body);
  }

  /** A 204 without a body. */
  static ApiResponse noContent() {
    return new ApiResponse(204, "application/json", new byte[0]);
  }

  static ApiResponse text(String text) {
    return new ApiResponse(
        200, "text/plain", text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }
}
