/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.testkit;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers one HTTP exchange of the test server: the OAuth token endpoint, or an API call routed to
 * its handler after authentication, the armed faults (delays, failures, dropped answers) and
 * authorization. Errors carry the body of the API they belong to. Handlers run one at a time,
 * holding the server's state lock.
 */
final class ApiHandler implements HttpHandler {

  private static final Logger LOG = LoggerFactory.getLogger(ApiHandler.class);

  /** Persists the catalog's state after a call changed it. */
  @FunctionalInterface
  interface StateSaver {
    void save() throws IOException;
  }

  private final Routes routes;
  private final FaultPlan faults;
  private final AccessControl access;
  private final OAuthTokens oauth;
  private final ObjectMapper mapper;
  private final Object stateLock;
  private final StateSaver afterChange;

  /**
   * @param oauth the OAuth token endpoint, or null when the server serves none
   * @param stateLock held while a handler runs, and by anything else that reads the state
   */
  ApiHandler(
      Routes routes,
      FaultPlan faults,
      AccessControl access,
      OAuthTokens oauth,
      ObjectMapper mapper,
      Object stateLock,
      StateSaver afterChange) {
    this.routes = routes;
    this.faults = faults;
    this.access = access;
    this.oauth = oauth;
    this.mapper = mapper;
    this.stateLock = stateLock;
    this.afterChange = afterChange;
  }

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String path = exchange.getRequestURI().getRawPath();
      if (oauth != null && path.equals(UnityCatalogServer.OAUTH_TOKEN_PATH)) {
        send(
            exchange,
            oauth.issue(
                exchange.getRequestHeaders().getFirst("Authorization"),
                new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8)));
        return;
      }
      if (!path.startsWith(UnityCatalogServer.API_BASE)) {
        send(exchange, error(404, "NOT_FOUND", "No such path: " + path));
        return;
      }
      String relative = path.substring(UnityCatalogServer.API_BASE.length());
      String method = exchange.getRequestMethod();
      Routes.Match match = routes.match(method, relative);
      if (match == null && method.equals("HEAD")) {
        // As the real server does, HEAD of a path served by GET alone is that GET without body.
        match = routes.match("GET", relative);
      }
      if (match == null) {
        // The real server's HTTP layer answers these itself, in plain text.
        send(
            exchange,
            routes.servesPath(relative)
                ? plain(405, "Method Not Allowed")
                : plain(404, "Not Found"));
        return;
      }
      String endpoint = match.route().endpoint();
      faults.recordCall(endpoint);
      AccessControl.Access caller;
      try {
        caller = access.check(exchange.getRequestHeaders().getFirst("Authorization"));
      } catch (UnityCatalogException e) {
        send(exchange, error(e.status(), e.errorCode(), e.getMessage()));
        return;
      }
      Duration delay = faults.delayOf(endpoint);
      if (!delay.isZero()) {
        Thread.sleep(delay.toMillis());
      }
      int failure = faults.takeFailure(endpoint);
      if (failure != 0) {
        send(exchange, error(failure, "INJECTED_FAULT", "Injected failure of " + endpoint));
        return;
      }
      ApiRequest request =
          new ApiRequest(
              endpoint,
              match.params(),
              Routes.query(exchange.getRequestURI().getRawQuery()),
              exchange.getRequestBody().readAllBytes(),
              mapper);
      try {
        AccessControl.authorize(caller, request);
      } catch (UnityCatalogException e) {
        send(exchange, error(e.status(), e.errorCode(), e.getMessage()));
        return;
      }
      ApiResponse response = apply(match.route(), request);
      if (response.status() == 200 && faults.takeDrop(endpoint)) {
        // Applied, but the client never hears of it: close without a response.
        LOG.info("Dropping the response of {} after applying it", endpoint);
        return;
      }
      send(exchange, response);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      LOG.warn("Unexpected failure answering {}", exchange.getRequestURI(), e);
    }
  }

  private ApiResponse apply(Routes.Route route, ApiRequest request) {
    synchronized (stateLock) {
      return applyHoldingTheLock(route, request);
    }
  }

  private ApiResponse applyHoldingTheLock(Routes.Route route, ApiRequest request) {
    try {
      Object result = route.handler().apply(request);
      if (!route.endpoint().startsWith("GET") && !route.endpoint().startsWith("HEAD")) {
        afterChange.save();
      }
      if (result instanceof ApiResponse response) {
        return response;
      }
      return ApiResponse.json(mapper.writeValueAsBytes(result));
    } catch (UnityCatalogException e) {
      return route.endpoint().contains(" /delta/v1/")
          ? deltaError(e.deltaStatus(), e.deltaType(), e.getMessage())
          : error(e.status(), e.errorCode(), e.getMessage());
    } catch (IOException e) {
      return error(500, "INTERNAL", e.getMessage());
    }
  }

  private ApiResponse error(int status, String code, String message) {
    Map<String, Object> body = new HashMap<>();
    body.put("error_code", code);
    body.put("message", message);
    body.put("details", List.of(Map.of("@type", "google.rpc.ErrorInfo", "reason", code)));
    try {
      return new ApiResponse(status, "application/json", mapper.writeValueAsBytes(body));
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * The UC Delta API's error body: {@code {"error":{"message","type","code","stack":null}}}. A JSON
   * tree keeps the explicit null that the server's mapper would leave out of a map.
   */
  private ApiResponse deltaError(int status, String type, String message) {
    ObjectNode body = mapper.createObjectNode();
    body.putObject("error")
        .put("message", message)
        .put("type", type)
        .put("code", status)
        .putNull("stack");
    try {
      return new ApiResponse(status, "application/json", mapper.writeValueAsBytes(body));
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The plain-text answer of the real server's HTTP layer, e.g. to a method a path lacks. */
  private static ApiResponse plain(int status, String description) {
    return new ApiResponse(
        status,
        "text/plain; charset=utf-8",
        ("Status: " + status + "\nDescription: " + description + "\n")
            .getBytes(StandardCharsets.UTF_8));
  }

  private static void send(HttpExchange exchange, ApiResponse response) throws IOException {
    exchange.getResponseHeaders().set("Content-Type", response.contentType());
    boolean bodiless =
        response.body().length == 0
            || response.status() == 204
            || exchange.getRequestMethod().equals("HEAD");
    exchange.sendResponseHeaders(response.status(), bodiless ? -1 : response.body().length);
    if (!bodiless) {
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(response.body());
      }
    }
  }
}
