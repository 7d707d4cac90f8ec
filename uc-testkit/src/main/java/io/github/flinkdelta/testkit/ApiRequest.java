/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.testkit;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.Map;

/**
 * One call to the API: its method, path below the API base, path parameters, query and body.
 *
 * @param endpoint the method and path template, e.g. {@code "GET /tables/{full_name}"}
 */
record ApiRequest(
    String endpoint,
    Map<String, String> pathParams,
    Map<String, String> query,
    byte[] body,
    ObjectMapper mapper) {

  String path(String name) {
    return pathParams.get(name);
  }

  String query(String name) {
    return query.get(name);
  }

  <T> T body(Class<T> type) {
    if (body.length == 0) {
      throw UnityCatalogException.badRequest("The request has no body.");
    }
    try {
      return mapper.readValue(body, type);
    } catch (IOException e) {
      throw UnityCatalogException.badRequest("Malformed request body: " + e.getMessage());
    }
  }
}
