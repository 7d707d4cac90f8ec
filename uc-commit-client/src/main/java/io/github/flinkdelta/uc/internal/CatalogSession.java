/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.uc.internal;

import io.delta.kernel.unitycatalog.UCCatalogManagedClient;
import io.delta.storage.commit.uccommitcoordinator.UCClient;
import io.delta.storage.commit.uccommitcoordinator.UCDeltaClient;
import io.delta.storage.commit.uccommitcoordinator.UCDeltaTokenBasedRestClient;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import io.unitycatalog.client.ApiClient;
import io.unitycatalog.client.ApiClientBuilder;
import io.unitycatalog.client.api.TablesApi;
import io.unitycatalog.client.api.TemporaryCredentialsApi;
import io.unitycatalog.client.auth.TokenProvider;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every {@link UnityCatalogClient} of one connection and one storage configuration in a
 * process shares while any of them is open: the token provider, the HTTP client, the REST APIs and
 * the commit clients inside Kernel and delta-storage, and the commit API the catalog offers.
 *
 * <p>Unity Catalog's generated client builds a new {@link HttpClient} (a selector thread of its
 * own, connections of its own) and a fresh copy of its JSON mapper for every API object made, and
 * delta-storage's commit clients build theirs in their constructors. A dynamic sink opens a client
 * for every table it finds, creates and commits; made anew each time, a thousand tables cost over
 * ten thousand HTTP clients and threads a minute and a probe of the catalog per table. Shared, they
 * cost one of each per connection.
 *
 * <p>A session is closed when its last client closes, so that nothing of a job outlives it in the
 * process; only the commit API a catalog offers is remembered beyond it.
 */
final class CatalogSession {

  private static final Logger LOG = LoggerFactory.getLogger(CatalogSession.class);

  /** The open sessions; guarded by itself. */
  private static final Map<Key, CatalogSession> OPEN = new HashMap<>();

  /**
   * Per connection that leaves the commit API to detection, the connection with the API the catalog
   * offered, found once per process: every table a sink finds or creates opens a client, and the
   * sessions are shared by the detected connection (the one tables carry once found).
   */
  private static final Map<UnityCatalogConnection, UnityCatalogConnection> DETECTED =
      new ConcurrentHashMap<>();

  private static final String API_BASE = "/api/2.1/unity-catalog";

  /** The commit-API probe, relative to the API base: protocol 1.0, a catalog that is absent. */
  private static final String PROBE = "/delta/v1/config?catalog=_probe&protocol-versions=1.0";

  private final Key key;
  private final ApiClient api;
  private final TablesApi tables;
  private final TemporaryCredentialsApi credentials;
  private final UCClient commitClient;
  private final UCDeltaClient deltaClient;
  private final UCCatalogManagedClient kernelClient;

  /** Clients holding the session; guarded by {@link #OPEN}. */
  private int holders;

  private CatalogSession(Key key) {
    this.key = key;
    UnityCatalogConnection connection = key.connection();
    Map<String, String> auth = connection.auth().tokenProviderConfig();
    TokenProvider tokens = TokenProvider.create(auth);
    // Retries with jittered backoff, as the clients inside Kernel and delta-storage do.
    this.api = ApiClientBuilder.create().uri(connection.endpoint()).tokenProvider(tokens).build();
    api.setHttpClientBuilder(new OneHttpClient(httpClient(connection)));
    api.setReadTimeout(connection.requestTimeout());
    this.tables = new TablesApi(api);
    this.credentials = new TemporaryCredentialsApi(api);
    if (connection.commitApi() == UnityCatalogConnection.CommitApi.DELTA_V1) {
      Map<String, String> config = new HashMap<>();
      config.put("uri", connection.endpoint().toString());
      auth.forEach((name, value) -> config.put("auth." + name, value));
      Configuration conf = new Configuration(key.conf());
      UCDeltaTokenBasedRestClient client = new UCDeltaTokenBasedRestClient(config, () -> conf);
      this.deltaClient = client;
      this.commitClient = client;
    } else {
      this.deltaClient = null;
      this.commitClient = new LegacyCommitClient(connection.endpoint().toString(), tokens, api);
    }
    this.kernelClient = new UCCatalogManagedClient(commitClient);
  }

  /**
   * The session of {@code connection} and {@code conf} (the same instance), opened when none is;
   * {@link #release} it once done.
   */
  static CatalogSession acquire(UnityCatalogConnection connection, Configuration conf) {
    Key key = new Key(detected(connection), conf);
    synchronized (OPEN) {
      CatalogSession open = OPEN.get(key);
      if (open != null) {
        open.holders++;
        return open;
      }
    }
    // Made outside the lock: other sessions are not held up meanwhile.
    CatalogSession opened = new CatalogSession(key);
    synchronized (OPEN) {
      CatalogSession open = OPEN.get(key);
      if (open == null) {
        open = opened;
        OPEN.put(key, open);
      } else {
        opened.closeClients();
      }
      open.holders++;
      return open;
    }
  }

  /** Lets go of the session; the last holder closes it. */
  void release() {
    synchronized (OPEN) {
      if (--holders > 0) {
        return;
      }
      OPEN.remove(key, this);
    }
    closeClients();
  }

  /** The sessions open in this process, for tests. */
  static int openSessions() {
    synchronized (OPEN) {
      return OPEN.size();
    }
  }

  ApiClient api() {
    return api;
  }

  TablesApi tables() {
    return tables;
  }

  TemporaryCredentialsApi credentials() {
    return credentials;
  }

  /** The UC Delta API client; null when the catalog commits through the legacy API. */
  UCDeltaClient deltaClient() {
    return deltaClient;
  }

  UCCatalogManagedClient kernelClient() {
    return kernelClient;
  }

  private void closeClients() {
    try {
      commitClient.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static HttpClient httpClient(UnityCatalogConnection connection) {
    return HttpClient.newBuilder().connectTimeout(connection.requestTimeout()).build();
  }

  /** {@code connection} with its commit API: as configured, or as detected. */
  private static UnityCatalogConnection detected(UnityCatalogConnection connection) {
    if (connection.commitApi() != UnityCatalogConnection.CommitApi.AUTO) {
      return connection;
    }
    UnityCatalogConnection known = DETECTED.get(connection);
    if (known != null) {
      return known;
    }
    UnityCatalogConnection found =
        connection.withCommitApi(
            offersDeltaApi(connection)
                ? UnityCatalogConnection.CommitApi.DELTA_V1
                : UnityCatalogConnection.CommitApi.LEGACY);
    DETECTED.putIfAbsent(connection, found);
    return found;
  }

  /**
   * Whether the catalog offers the UC Delta API. The probe asks for the configuration of a catalog
   * that does not exist, naming the protocol version delta-storage's client speaks (UC OSS 0.6.0
   * answers a probe without {@code protocol-versions} with 400, whatever the catalog). A server
   * with the Delta API answers 404 with the Delta API's own error body ({@code {"error":{...}}}),
   * or 200 should the catalog exist; one older than UC 0.5 has no {@code /delta/v1} route at all.
   */
  private static boolean offersDeltaApi(UnityCatalogConnection connection) {
    TokenProvider tokens = TokenProvider.create(connection.auth().tokenProviderConfig());
    HttpRequest probe =
        HttpRequest.newBuilder(URI.create(connection.endpoint() + API_BASE + PROBE))
            .header("Authorization", "Bearer " + tokens.accessToken())
            .timeout(connection.requestTimeout())
            .GET()
            .build();
    try {
      HttpResponse<String> answer =
          httpClient(connection).send(probe, HttpResponse.BodyHandlers.ofString());
      boolean deltaBody = answer.body() != null && answer.body().contains("\"error\":{");
      boolean deltaApi = answer.statusCode() == 200 || (answer.statusCode() == 404 && deltaBody);
      if (!deltaApi && deltaBody) {
        // It has the Delta API but refused the probe: say so rather than switch silently.
        LOG.warn(
            "Unity Catalog at {} refused the UC Delta API probe (HTTP {}: {}); committing"
                + " through /delta/preview/commits. Set the commit API explicitly to choose.",
            connection.endpoint(),
            answer.statusCode(),
            answer.body());
      }
      LOG.info(
          "Unity Catalog at {} {} the UC Delta API",
          connection.endpoint(),
          deltaApi ? "offers" : "does not offer");
      return deltaApi;
    } catch (IOException e) {
      throw UnityCatalogErrors.callFailed(connection, "detect its commit API", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw UnityCatalogErrors.callFailed(connection, "detect its commit API", e);
    }
  }

  /** A connection and a storage configuration, the latter by identity. */
  private record Key(UnityCatalogConnection connection, Configuration conf) {
    @Override
    public boolean equals(Object other) {
      return other instanceof Key key && key.connection.equals(connection) && key.conf == conf;
    }

    @Override
    public int hashCode() {
      return 31 * connection.hashCode() + System.identityHashCode(conf);
    }
  }
}
