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
