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
