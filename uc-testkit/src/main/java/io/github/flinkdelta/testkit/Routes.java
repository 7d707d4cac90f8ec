/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.testkit;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The server's endpoints, each named by method and path template (e.g. {@code "GET
 * /tables/{full_name}"}), and the matching of a request path to one of them.
 */
final class Routes {

  record Route(String endpoint, Function<ApiRequest, Object> handler) {}

  /** A matched route and the values of its path parameters, URL-decoded. */
  record Match(Route route, Map<String, String> params) {}

  private final List<Route> routes = new ArrayList<>();

  void add(String endpoint, Function<ApiRequest, Object> handler) {
    routes.add(new Route(endpoint, handler));
  }

  /** The route for {@code method} and {@code path} (relative to the API base), or null. */
  Match match(String method, String path) {
    for (Route route : routes) {
      String[] template = route.endpoint().split(" ", 2);
      if (template[0].equals(method)) {
        Map<String, String> params = params(template[1], path);
        if (params != null) {
          return new Match(route, params);
        }
      }
    }
    return null;
  }

  /** Whether some route, of any method, serves {@code path}. */
  boolean servesPath(String path) {
    for (Route route : routes) {
      if (params(route.endpoint().split(" ", 2)[1], path) != null) {
        return true;
      }
    }
    return false;
  }

  /** The path parameters when {@code path} matches {@code template}, else null. */
  private static Map<String, String> params(String template, String path) {
    String[] parts = path.split("/", -1);
    String[] expected = template.split("/", -1);
    if (expected.length != parts.length) {
      return null;
    }
    Map<String, String> params = new HashMap<>();
    for (int i = 0; i < parts.length; i++) {
      if (expected[i].startsWith("{")) {
        params.put(
            expected[i].substring(1, expected[i].length() - 1),
            URLDecoder.decode(parts[i], StandardCharsets.UTF_8));
      } else if (!expected[i].equals(parts[i])) {
        return null;
      }
    }
    return params;
  }

  /** A raw query string's parameters, URL-decoded. */
  static Map<String, String> query(String raw) {
    Map<String, String> query = new HashMap<>();
    if (raw != null) {
      for (String pair : raw.split("&")) {
        String[] kv = pair.split("=", 2);
        query.put(
            URLDecoder.decode(kv[0], StandardCharsets.UTF_8),
            kv.length > 1 ? URLDecoder.decode(kv[1], StandardCharsets.UTF_8) : "");
      }
    }
    return query;
  }
}
