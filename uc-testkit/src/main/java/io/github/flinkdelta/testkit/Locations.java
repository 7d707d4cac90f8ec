/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
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
