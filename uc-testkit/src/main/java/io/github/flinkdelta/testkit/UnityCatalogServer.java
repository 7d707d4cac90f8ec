/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.testkit;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.unitycatalog.client.delta.serde.DeltaDataTypeModule;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.apache.flink.annotation.PublicEvolving;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An embedded HTTP server that speaks the Unity Catalog REST API a Delta writer uses, under {@code
 * /api/2.1/unity-catalog}, with Unity Catalog OSS v0.6.0's commit rules. For tests and local
 * development: it listens on loopback only, keeps its state in memory (optionally persisted to a
 * directory), and can inject faults through {@link #faults()}.
 *
 * <pre>{@code
 * try (UnityCatalogServer uc = UnityCatalogServer.builder().storageRoot(dir).build().start()) {
 *   String endpoint = uc.uri().toString();   // http://127.0.0.1:<port>
 *   uc.faults().failNext("POST /delta/preview/commits", 2, 503);
 * }
 * }</pre>
 *
 * <p>A new server holds catalog {@code main} with schema {@code default}.
 */
@PublicEvolving
public final class UnityCatalogServer implements AutoCloseable {

  /** The path below which the API lives. */
  public static final String API_BASE = "/api/2.1/unity-catalog";

  /** The path of the OAuth token endpoint, when OAuth clients are configured. */
  public static final String OAUTH_TOKEN_PATH = "/oauth/token";

  private static final Logger LOG = LoggerFactory.getLogger(UnityCatalogServer.class);

  private final Builder settings;
  private final ObjectMapper mapper;
  private final FaultPlan faults = new FaultPlan();
  private final Routes routes = new Routes();
  private final CatalogState state;
  private final OAuthTokens oauth;
  private final AccessControl access;
  private HttpServer http;
  private ExecutorService executor;

  private UnityCatalogServer(Builder settings) {
    this.settings = settings;
    this.mapper =
        new ObjectMapper()
            .registerModule(new JavaTimeModule())
            .registerModule(new DeltaDataTypeModule())
            .setSerializationInclusion(JsonInclude.Include.NON_NULL)
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
    this.oauth =
        settings.oauthClientId == null
            ? null
            : new OAuthTokens(
                settings.oauthClientId,
                settings.oauthClientSecret,
                settings.oauthTokenLifetime,
                settings.clock);
    this.access = new AccessControl(settings.token, settings.readOnlyToken, oauth);
    this.state =
        settings.stateDirectory == null
            ? new CatalogState()
            : CatalogState.load(settings.stateDirectory, mapper);
    S3CredentialVendor s3 =
        new S3CredentialVendor(
            settings.s3Credentials,
            settings.distinctS3Lifetime,
            settings.s3Listener,
            settings.clock);
    CatalogApi catalogs =
        new CatalogApi(state, settings.storageRoot, s3, settings.clock, settings.metastoreId);
    CommitsApi commits = new CommitsApi(state, settings.clock);
    DeltaRestApi delta = new DeltaRestApi(state, settings.storageRoot, s3, settings.clock, mapper);

    route("GET /metastore_summary", catalogs::metastoreSummary);
    route("POST /catalogs", catalogs::createCatalog);
    route("GET /catalogs", catalogs::listCatalogs);
    route("GET /catalogs/{name}", catalogs::getCatalog);
    route("DELETE /catalogs/{name}", catalogs::deleteCatalog);
    route("POST /schemas", catalogs::createSchema);
    route("GET /schemas", catalogs::listSchemas);
    route("GET /schemas/{full_name}", catalogs::getSchema);
    route("DELETE /schemas/{full_name}", catalogs::deleteSchema);
    route("POST /staging-tables", catalogs::createStagingTable);
    route("POST /tables", catalogs::createTable);
    route("GET /tables", catalogs::listTables);
    route("GET /tables/{full_name}", catalogs::getTable);
    route("DELETE /tables/{full_name}", catalogs::deleteTable);
    route("POST /temporary-table-credentials", catalogs::temporaryTableCredentials);
    route("POST /delta/preview/commits", commits::commit);
    route("GET /delta/preview/commits", commits::getCommits);
    if (settings.deltaApi) {
      registerDeltaApi(delta);
    }

    if (state.catalogs.isEmpty()) {
      bootstrap(catalogs);
    }
  }

  private void registerDeltaApi(DeltaRestApi delta) {
    String v1Table = "/delta/v1/catalogs/{catalog}/schemas/{schema}/tables/{table}";
    route("GET /delta/v1/config", new DeltaConfigApi(state)::config);
    route(
        "POST /delta/v1/catalogs/{catalog}/schemas/{schema}/staging-tables",
        delta::createStagingTable);
    route("POST /delta/v1/catalogs/{catalog}/schemas/{schema}/tables", delta::createTable);
    route("GET " + v1Table, delta::loadTable);
    route("POST " + v1Table, delta::updateTable);
    route("HEAD " + v1Table, delta::tableExists);
    route("DELETE " + v1Table, delta::deleteTable);
    route("GET " + v1Table + "/credentials", delta::tableCredentials);
    route("GET /delta/v1/staging-tables/{table_id}/credentials", delta::stagingCredentials);
  }

  /** Starts configuring a server. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Whether the JDK's HTTP server sends small writes at once (TCP_NODELAY). It writes a response's
   * headers and body apart; without it, the body waits for the client's delayed acknowledgement of
   * the headers, about 40 ms on Linux, and every call took that long (45 ms against 2.4 ms for a
   * GET on loopback), where Unity Catalog's own server answers at once. Read once per JVM, when the
   * first JDK HTTP server starts.
   */
  private static final String NO_DELAY = "sun.net.httpserver.nodelay";

  /** Starts listening; returns this server. */
  public synchronized UnityCatalogServer start() throws IOException {
    if (System.getProperty(NO_DELAY) == null) {
      System.setProperty(NO_DELAY, "true");
    }
    InetSocketAddress address =
        new InetSocketAddress(InetAddress.getLoopbackAddress(), settings.port);
    if (settings.tlsContext == null) {
      http = HttpServer.create(address, 0);
    } else {
      HttpsServer https = HttpsServer.create(address, 0);
      https.setHttpsConfigurator(new HttpsConfigurator(settings.tlsContext));
      http = https;
    }
    AtomicInteger threads = new AtomicInteger();
    executor =
        Executors.newFixedThreadPool(
            4,
            r -> {
              Thread thread = new Thread(r, "uc-testkit-http-" + threads.incrementAndGet());
              thread.setDaemon(true);
              return thread;
            });
    http.setExecutor(executor);
    http.createContext(
        "/",
        new ApiHandler(
            routes,
            faults,
            access,
            oauth,
            mapper,
            this,
            () -> {
              if (settings.stateDirectory != null) {
                state.save(settings.stateDirectory, mapper);
              }
            }));
    http.start();
    LOG.info("Unity Catalog test server listening on {}", uri());
    return this;
  }

  /** The base URI ({@code https} with {@link Builder#tls}); the API is below {@link #API_BASE}. */
  public URI uri() {
    String scheme = settings.tlsContext == null ? "http" : "https";
    return URI.create(scheme + "://127.0.0.1:" + http.getAddress().getPort());
  }

  /** The OAuth token endpoint's URI. */
  public URI oauthTokenUri() {
    return URI.create(uri() + OAUTH_TOKEN_PATH);
  }

  /** How many OAuth tokens the server has issued. */
  public int oauthTokensIssued() {
    return oauth == null ? 0 : oauth.issuedCount();
  }

  /** The faults to inject, armed by tests. */
  public FaultPlan faults() {
    return faults;
  }

  /** The latest version the catalog has ratified for a managed table, or -1 if unknown. */
  public synchronized long latestVersion(String fullTableName) {
    CatalogState.Table table = state.tables.get(fullTableName);
    CatalogState.CommitLog log = table == null ? null : state.commits.get(table.id());
    return log == null ? -1 : log.latestVersion;
  }

  /**
   * The storage location of a table ({@code file:///...} for local storage), or null when the
   * catalog has no table of that name.
   */
  public synchronized String storageLocation(String fullTableName) {
    CatalogState.Table table = state.tables.get(fullTableName);
    return table == null ? null : table.location();
  }

  @Override
  public synchronized void close() {
    if (http != null) {
      http.stop(0);
      executor.shutdownNow();
      http = null;
    }
  }

  private void bootstrap(CatalogApi catalogs) {
    ApiRequest catalog =
        request("POST /catalogs", "{\"name\":\"main\",\"comment\":\"Default catalog\"}");
    catalogs.createCatalog(catalog);
    catalogs.createSchema(
        request("POST /schemas", "{\"name\":\"default\",\"catalog_name\":\"main\"}"));
  }

  private ApiRequest request(String endpoint, String json) {
    return new ApiRequest(
        endpoint, Map.of(), Map.of(), json.getBytes(StandardCharsets.UTF_8), mapper);
  }

  private void route(String endpoint, Function<ApiRequest, Object> handler) {
    routes.add(endpoint, handler);
  }

  /** AWS-style credentials the server vends for tables on {@code s3://} locations. */
  public record S3Credentials(
      String accessKeyId, String secretAccessKey, String sessionToken, Duration lifetime) {
    public S3Credentials {
      Objects.requireNonNull(accessKeyId, "accessKeyId");
      Objects.requireNonNull(secretAccessKey, "secretAccessKey");
      Objects.requireNonNull(lifetime, "lifetime");
    }

    @Override
    public String toString() {
      return "S3Credentials[accessKeyId=" + accessKeyId + ", lifetime=" + lifetime + "]";
    }
  }

  /** Configures a {@link UnityCatalogServer}. */
  public static final class Builder {
    private int port;
    private URI storageRoot;
    private Path stateDirectory;
    private String token;
    private String readOnlyToken;
    private S3Credentials s3Credentials;
    private Duration distinctS3Lifetime;
    private Consumer<VendedS3Credential> s3Listener;
    private Clock clock = Clock.systemUTC();
    private String oauthClientId;
    private String oauthClientSecret;
    private Duration oauthTokenLifetime = Duration.ofHours(1);
    private boolean deltaApi = true;
    private String metastoreId = UUID.randomUUID().toString();
    private SSLContext tlsContext;

    private Builder() {}

    /** The port to listen on; 0 (the default) picks a free one. */
    public Builder port(int port) {
      this.port = port;
      return this;
    }

    /** Where managed tables are placed: {@code <root>/tables/<table id>}. */
    public Builder storageRoot(URI root) {
      String text = root.toString();
      this.storageRoot = URI.create(text.endsWith("/") ? text : text + "/");
      return this;
    }

    /** Where managed tables are placed, on the local file system. */
    public Builder storageRoot(Path root) {
      return storageRoot(root.toAbsolutePath().toUri());
    }

    /** Keeps the catalog's state in this directory, so a restarted server finds it again. */
    public Builder stateDirectory(Path directory) {
      this.stateDirectory = directory;
      return this;
    }

    /** Requires this bearer token on every call (401 without one, 403 for another). */
    public Builder token(String token) {
      this.token = token;
      return this;
    }

    /**
     * Also accepts this bearer token, for reads only: calls that change the catalog, commits and
     * requests for read-write credentials answer 403, as for a principal without MODIFY.
     */
    public Builder readOnlyToken(String token) {
      this.readOnlyToken = token;
      return this;
    }

    /**
     * Serves OAuth client-credentials tokens at {@link #OAUTH_TOKEN_PATH} for this client, and
     * accepts them as bearer tokens.
     */
    public Builder oauthClient(String clientId, String clientSecret, Duration tokenLifetime) {
      this.oauthClientId = clientId;
      this.oauthClientSecret = clientSecret;
      this.oauthTokenLifetime = tokenLifetime;
      return this;
    }

    /** The credentials vended for tables on {@code s3://} locations: one key pair for all. */
    public Builder s3Credentials(S3Credentials credentials) {
      this.s3Credentials = credentials;
      this.distinctS3Lifetime = null;
      return this;
    }

    /**
     * Vends a new access key, secret and session token for {@code s3://} locations on every
     * credential request, each announced as expiring after {@code lifetime}. The server enforces
     * nothing on storage: hand each key to the S3 endpoint with {@link #onS3CredentialVended}.
     */
    public Builder distinctS3Credentials(Duration lifetime) {
      this.distinctS3Lifetime = Objects.requireNonNull(lifetime, "lifetime");
      this.s3Credentials = null;
      return this;
    }

    /** Told each S3 credential the server vends, before the answer carrying it is sent. */
    public Builder onS3CredentialVended(Consumer<VendedS3Credential> listener) {
      this.s3Listener = listener;
      return this;
    }

    /**
     * Whether the server offers the UC Delta API under {@code /delta/v1} (the default); without it,
     * it behaves like a server older than UC 0.5 that has only {@code /delta/preview/commits}.
     */
    public Builder deltaApi(boolean enabled) {
      this.deltaApi = enabled;
      return this;
    }

    /** Serves HTTPS with the first key and certificate of a PKCS12 key store. */
    public Builder tls(Path keyStore, char[] password) {
      try (InputStream in = Files.newInputStream(keyStore)) {
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(in, password);
        KeyManagerFactory keys =
            KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(store, password);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keys.getKeyManagers(), null, null);
        this.tlsContext = context;
        return this;
      } catch (IOException | GeneralSecurityException e) {
        throw new IllegalArgumentException("Cannot use key store " + keyStore + " for TLS", e);
      }
    }

    /** The clock for timestamps and credential expiry. */
    public Builder clock(Clock clock) {
      this.clock = clock;
      return this;
    }

    public UnityCatalogServer build() {
      if (storageRoot == null) {
        throw new IllegalArgumentException(
            "Set storageRoot(...): the location under which managed tables are created");
      }
      return new UnityCatalogServer(this);
    }
  }
}
