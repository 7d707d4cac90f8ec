/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.uc.internal;

import java.net.Authenticator;
import java.net.CookieHandler;
import java.net.ProxySelector;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.concurrent.Executor;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

/**
 * A builder that gives one client, configured before: Unity Catalog's {@code ApiClient} asks its
 * builder for a client for every API object it makes, and this way they all share one. Configuring
 * it is refused, as it would change nothing.
 */
final class OneHttpClient implements HttpClient.Builder {

  private final HttpClient client;

  OneHttpClient(HttpClient client) {
    this.client = client;
  }

  @Override
  public HttpClient build() {
    return client;
  }

  @Override
  public HttpClient.Builder cookieHandler(CookieHandler cookieHandler) {
    throw configured();
  }

  @Override
  public HttpClient.Builder connectTimeout(Duration duration) {
    throw configured();
  }

  @Override
  public HttpClient.Builder sslContext(SSLContext sslContext) {
    throw configured();
  }

  @Override
  public HttpClient.Builder sslParameters(SSLParameters sslParameters) {
    throw configured();
  }

  @Override
  public HttpClient.Builder executor(Executor executor) {
    throw configured();
  }

  @Override
  public HttpClient.Builder followRedirects(HttpClient.Redirect policy) {
    throw configured();
  }

  @Override
  public HttpClient.Builder version(HttpClient.Version version) {
    throw configured();
  }

  @Override
  public HttpClient.Builder priority(int priority) {
    throw configured();
  }

  @Override
  public HttpClient.Builder proxy(ProxySelector proxySelector) {
    throw configured();
  }

  @Override
  public HttpClient.Builder authenticator(Authenticator authenticator) {
    throw configured();
  }

  private static UnsupportedOperationException configured() {
    return new UnsupportedOperationException(
        "The shared Unity Catalog HTTP client is configured when it is made");
  }
}
