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

import java.net.URI;

/** Compares storage locations the way a catalog must: {@code file:/x} is {@code file:///x/}. */
final class Locations {

  private Locations() {}

  static boolean same(String a, String b) {
    return normalize(a).equals(normalize(b));
  }

  static String normalize(String location) {
    URI uri = URI.create(location.trim()).normalize();
    String scheme = uri.getScheme() == null ? "file" : uri.getScheme();
    String authority = uri.getAuthority() == null ? "" : uri.getAuthority();
    String path = uri.getPath() == null ? "" : uri.getPath();
    while (path.endsWith("/") && path.length() > 1) {
      path = path.substring(0, path.length() - 1);
    }
    return scheme + "://" + authority + path;
  }
}
