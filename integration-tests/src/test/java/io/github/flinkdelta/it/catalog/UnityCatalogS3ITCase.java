/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.it.support.Await;
import io.github.flinkdelta.it.support.CatalogReads;
import io.github.flinkdelta.it.support.EnforcedS3;
import io.github.flinkdelta.it.support.FailingMapper;
import io.github.flinkdelta.it.support.FaultCounter;
import io.github.flinkdelta.it.support.FlinkCluster;
import io.github.flinkdelta.it.support.LogCapture;
import io.github.flinkdelta.it.support.S3FaultInterceptor;
import io.github.flinkdelta.it.support.StorageWrites;
import io.github.flinkdelta.it.support.TestRows;
import io.github.flinkdelta.s3testkit.CredentialEnforcingProxy;
import io.github.flinkdelta.sink.DeltaSink;
import io.github.flinkdelta.sink.DeltaSinkBuilder;
import io.github.flinkdelta.sink.DeltaSinkOptions;
import io.github.flinkdelta.source.DeltaSource;
import io.github.flinkdelta.source.DeltaSourceOptions;
import io.github.flinkdelta.testkit.UnityCatalogServer;
import io.github.flinkdelta.testkit.VendedS3Credential;
import io.github.flinkdelta.uc.Secret;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.testutils.junit.SharedObjectsExtension;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Unity Catalog managed tables on S3: s3proxy speaks the S3 protocol on loopback (a child JVM)
 * behind a proxy that enforces what S3 enforces of temporary credentials ({@link EnforcedS3}),
 * hadoop-aws's S3A writes to it, and the only keys the job has are the ones the catalog vends, a
 * new one on every request, renewed through {@code unitycatalog-hadoop} before they expire. Also a
 * SQL path table on the same S3, configured through {@code hadoop.*} table options.
 */
class UnityCatalogS3ITCase {

  @RegisterExtension static final FlinkCluster FLINK = FlinkCluster.create();

  @RegisterExtension final SharedObjectsExtension shared = SharedObjectsExtension.create();
  private final FaultCounter injected = FaultCounter.in(shared);

  private static final int BUCKETS = 4;
  private static final String ACCESS_KEY = "static-access-key";
  private static final String SECRET_KEY = "static-secret-" + java.util.UUID.randomUUID();
  private static final String TOKEN = "uc-test-token";
  private static final String READ_ONLY_TOKEN = "uc-read-only-" + java.util.UUID.randomUUID();
  private static final String TABLE_CREDENTIALS = "POST /temporary-table-credentials";
  private static final String STAGING_CREDENTIALS =
      "GET /delta/v1/staging-tables/{table_id}/credentials";

  /** The renewal lead the expiry test gives the connector ({@code unitycatalog-hadoop}'s key). */
  private static final String RENEWAL_LEAD = "fs.unitycatalog.renewal.leadTimeMillis";

  @TempDir static Path s3Directory;
  @TempDir Path copyDirectory;
  private static EnforcedS3 s3;

  private UnityCatalogServer server;
  private UnityCatalogConnection connection;
  private int firstKey;

  @BeforeAll
  static void startS3() {
    s3 = EnforcedS3.start(s3Directory, "lake");
    // The SQL path table has keys of its own, as a user's job without a catalog would.
    s3.gate().registerPermanent(ACCESS_KEY, SECRET_KEY);
  }

  @AfterAll
  static void stopS3() {
    s3.close();
  }

  @AfterEach
  void stopCatalog() {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void managedTableOnS3IsWrittenExactlyOnceWithVendedCredentials() throws Exception {
    startCatalog(Duration.ofHours(1), "managed-once");
    long count = 3_000;
    StreamExecutionEnvironment env = FLINK.job().checkpointEveryMillis(200).restarts(5).env();
    TestRows.source(env, count, 2_000, BUCKETS)
        .map(new FailingMapper(injected, 1, 800))
        .sinkTo(sink("main.default.clicks", Map.of()));
    env.execute("uc on s3");

    assertThat(injected.count()).isPositive();
    assertExactlyInCatalog("main.default.clicks", count);
    // Version 0 was written with the staging table's credentials, the rest with the table's.
    assertThat(server.faults().calls(STAGING_CREDENTIALS)).isPositive();
    assertThat(server.faults().calls(TABLE_CREDENTIALS)).isPositive();
    // Every request the job sent was signed with a key the catalog vended, in its lifetime.
    List<CredentialEnforcingProxy.KeyStats> keys = s3.statsSince(firstKey);
    assertThat(keys.stream().mapToLong(CredentialEnforcingProxy.KeyStats::accepted).sum())
        .isPositive();
    assertThat(keys).allSatisfy(k -> assertThat(k.refusedExpired() + k.refusedOther()).isZero());
    // The table's objects are in the bucket, Parquet files and commits alike.
    List<Path> objects = objectsUnder("managed-once");
    assertThat(objects).anyMatch(p -> p.toString().endsWith(".parquet"));
    assertThat(objects).anyMatch(p -> p.toString().endsWith("00000000000000000001.json"));
  }

  @Test
  void aJobRunningManyCredentialLifetimesRenewsEveryKeyBeforeItExpires() throws Exception {
    // Each key lives 4 s; the connector renews one 3 s before its expiry, so a request signed
    // just before a renewal still has 3 s to arrive: no machine is that slow on loopback. The
    // source runs 24 s at least (6,000 rows at 250 a second), six lifetimes or more.
    Duration lifetime = Duration.ofSeconds(4);
    startCatalog(lifetime, "renewed");
    long count = 6_000;
    StreamExecutionEnvironment env = FLINK.job().checkpointEveryMillis(1_000).restarts(0).env();
    TestRows.source(env, count, 250, BUCKETS)
        .sinkTo(
            sink(
                "main.default.renewed",
                Map.of(RENEWAL_LEAD, "3000"),
                // Delta checkpoints every 4 versions, so that they run with renewed keys too.
                4));
    long started = System.nanoTime();
    // No restarts: a healthy connector needs none. A failed job is reported after the figures.
    Exception failure = null;
    try {
      env.execute("credentials expire");
    } catch (Exception e) {
      failure = e;
    }
    Duration ran = Duration.ofNanos(System.nanoTime() - started);

    CredentialEnforcingProxy gate = s3.gate();
    List<CredentialEnforcingProxy.KeyStats> keys = s3.statsSince(firstKey);
    List<CredentialEnforcingProxy.KeyStats> used =
        keys.stream().filter(k -> k.accepted() > 0).toList();
    long refusedExpired =
        keys.stream().mapToLong(CredentialEnforcingProxy.KeyStats::refusedExpired).sum();
    System.out.printf(
        "Credential expiry: job %d s, lifetime %d s, %d keys vended, %d used, %d requests"
            + " accepted, %d refused as expired, %d refused otherwise%n",
        ran.toSeconds(),
        lifetime.toSeconds(),
        keys.size(),
        used.size(),
        used.stream().mapToLong(CredentialEnforcingProxy.KeyStats::accepted).sum(),
        refusedExpired,
        keys.stream().mapToLong(CredentialEnforcingProxy.KeyStats::refusedOther).sum());
    // The connector renewed every key in time: the proxy never had to refuse one as expired.
    assertThat(refusedExpired).as("requests refused as expired").isZero();
    if (failure != null) {
      throw failure;
    }
    assertExactlyInCatalog("main.default.renewed", count);
    assertThat(ran).isGreaterThan(lifetime.multipliedBy(5));
    // Nothing else was refused, and the proxy saw each key only before that key's expiry.
    assertThat(keys).allSatisfy(k -> assertThat(k.refusedOther()).isZero());
    assertThat(used).allSatisfy(k -> assertThat(k.lastAccepted()).isBefore(k.expiresAt()));
    assertThat(gate.acceptedAfterExpiry()).isZero();
    // Requests spanning 24 s can be covered by keys of 4 s only with six of them at least.
    assertThat(used).hasSizeGreaterThanOrEqualTo(6);
    // Writers, committer (staged commits), publish and Delta checkpoints all wrote with keys
    // vended after the first key had expired: a write accepted a lifetime after that expiry
    // was signed with a key vended after it. Each part renewed its own credentials.
    Instant firstExpired =
        keys.stream()
            .map(CredentialEnforcingProxy.KeyStats::expiresAt)
            .min(Instant::compareTo)
            .get();
    Map<String, Long> lateWrites =
        StorageWrites.after(gate, "/lake/renewed/", firstExpired.plus(lifetime));
    System.out.printf("Credential expiry: writes with renewed keys only %s%n", lateWrites);
    assertThat(lateWrites)
        .as("writes of each kind accepted with keys vended after the first key expired")
        .containsOnlyKeys(StorageWrites.KINDS)
        .allSatisfy((kind, n) -> assertThat(n).as(kind).isPositive());
  }

  @Test
  void aReadOnlyPrincipalCopiesAManagedTableOnS3AsItIsWrittenThroughKeyExpiriesAndS3Faults()
      throws Exception {
    // The reader's token may only read, so the catalog vends it read-only keys or none; each key
    // lives 4 s, and the read runs as long as the writer (20 s at least: 5,000 rows at 250 a
    // second). Connection resets on S3, in both jobs' file systems, fire twice while it copies.
    Duration lifetime = Duration.ofSeconds(4);
    startCatalog(lifetime, "read");
    Map<String, String> storage = new java.util.HashMap<>(s3.storageOptions());
    storage.put(RENEWAL_LEAD, "3000");
    storage.put("fs.s3a.audit.execution.interceptors", S3FaultInterceptor.class.getName());
    storage.put("fs.s3a.attempts.maximum", "1");
    storage.put("fs.s3a.retry.limit", "2");
    storage.put("fs.s3a.retry.interval", "20ms");
    S3FaultInterceptor.clear();
    S3FaultInterceptor.resetCounts();
    long count = 5_000;
    String source = "main.default.read";
    String copy = copyDirectory.resolve("copy").toUri().toString();

    StreamExecutionEnvironment writing = FLINK.job().checkpointEveryMillis(200).restarts(5).env();
    TestRows.source(writing, count, 250, BUCKETS).sinkTo(sink(source, storage));
    JobClient writer = writing.executeAsync("writer");
    Await.until(writer, "the table's first version", () -> server.latestVersion(source) >= 1);

    UnityCatalogConnection readOnly =
        new UnityCatalogConnection(server.uri(), Secret.of(READ_ONLY_TOKEN));
    StreamExecutionEnvironment reading = FLINK.job().checkpointEveryMillis(200).restarts(5).env();
    reading
        .fromSource(
            DeltaSource.builder()
                .unityCatalog(readOnly)
                .tableName(source)
                .hadoopOptions(storage)
                .continuous()
                .option(DeltaSourceOptions.POLL_INTERVAL, Duration.ofMillis(200))
                .build(),
            WatermarkStrategy.noWatermarks(),
            "delta source")
        .sinkTo(DeltaSink.builder().tablePath(copy).rowType(TestRows.TYPE).build());
    long started = System.nanoTime();
    JobClient reader = reading.executeAsync("reader");

    for (long part = 1; part <= 2; part++) {
      long rows = count * part / 3;
      Await.until(reader, "a share of the rows copied", () -> rowsIn(copy) >= rows);
      S3FaultInterceptor.resetNext(3);
      int fired = (int) part;
      Await.until(reader, "the S3 fault to fire", () -> S3FaultInterceptor.resetsFired() >= fired);
    }
    writer.getJobExecutionResult().get();
    Await.until(reader, "the copy to hold every row", () -> rowsIn(copy) >= count);
    Duration ran = Duration.ofNanos(System.nanoTime() - started);
    reader.cancel().get();
    S3FaultInterceptor.clear();

    assertThat(S3FaultInterceptor.resetsFired()).isEqualTo(2);
    assertThat(DeltaTableReader.readAll(copy))
        .containsExactlyInAnyOrderElementsOf(TestRows.expected(count, BUCKETS));
    assertExactlyInCatalog(source, count);
    // The read outlived several keys, every one renewed before it expired. The catalog answers
    // the read-only token's requests for read-write keys 403: the reader asked for read keys only.
    assertThat(ran).isGreaterThan(lifetime.multipliedBy(4));
    List<CredentialEnforcingProxy.KeyStats> keys = s3.statsSince(firstKey);
    assertThat(keys.stream().mapToLong(CredentialEnforcingProxy.KeyStats::refusedExpired).sum())
        .as("requests refused as expired")
        .isZero();
  }

  private static long rowsIn(String table) {
    try {
      return DeltaTableReader.readAll(table).size();
    } catch (RuntimeException e) {
      return 0;
    }
  }

  @Test
  void aKeyUsedPastItsExpiryIsRefusedWithExpiredToken() throws Exception {
    // The enforcement the test above relies on fires: a client that keeps a vended key past its
    // expiry, as a connector that never renewed would, is refused.
    Duration lifetime = Duration.ofSeconds(2);
    startCatalog(lifetime, "stale");
    VendedS3Credential stale = vendOne();
    try (S3Client client = client(stale)) {
      String key = "stale/probe-" + stale.accessKeyId();
      client.putObject(b -> b.bucket("lake").key(key), RequestBody.fromString("in time"));
      Thread.sleep(Duration.between(Instant.now(), stale.expiresAt()).toMillis() + 100);
      assertThatThrownBy(
              () ->
                  client.putObject(b -> b.bucket("lake").key(key), RequestBody.fromString("late")))
          .isInstanceOfSatisfying(
              S3Exception.class,
              e -> {
                assertThat(e.statusCode()).isEqualTo(403);
                assertThat(e.awsErrorDetails().errorCode()).isEqualTo("ExpiredToken");
              });
      assertThat(s3.bucketDirectory("lake").resolve(key)).hasContent("in time");
    }
    CredentialEnforcingProxy.KeyStats stats = s3.gate().stats(stale.accessKeyId());
    assertThat(stats.refusedExpired()).isEqualTo(1);
    assertThat(stats.lastAccepted()).isBefore(stale.expiresAt());
  }

  @Test
  void aSqlPathTableOnS3TakesItsStorageOptionsFromHadoopPrefixedOptions() throws Exception {
    String table = "s3a://lake/sql-path/events";
    StringBuilder options = new StringBuilder();
    Map<String, String> storage = new java.util.HashMap<>(s3.storageOptions());
    storage.put("fs.s3a.access.key", ACCESS_KEY);
    storage.put("fs.s3a.secret.key", SECRET_KEY);
    storage.forEach(
        (k, v) -> options.append(", 'hadoop.").append(k).append("' = '").append(v).append("'"));
    String logs;
    try (LogCapture capture = new LogCapture()) {
      StreamTableEnvironment sql =
          StreamTableEnvironment.create(FLINK.job().checkpointEveryMillis(200).env());
      sql.executeSql(
          "CREATE TABLE events (id BIGINT, bucket INT) PARTITIONED BY (bucket) WITH"
              + " ('connector' = 'delta', 'table-path' = '"
              + table
              + "'"
              + options
              + ")");
      sql.executeSql(
              "INSERT INTO events SELECT CAST(v AS BIGINT), MOD(v, 3) FROM (VALUES (1), (2), (3),"
                  + " (4), (5)) AS t(v)")
          .await();
      logs = capture.text();
    }

    Configuration conf = io.github.flinkdelta.core.storage.HadoopConfigurations.of(storage);
    assertThat(DeltaTableReader.readAll(table, conf))
        .containsExactlyInAnyOrder(
            List.of(1L, 1), List.of(2L, 2), List.of(3L, 0), List.of(4L, 1), List.of(5L, 2));
    assertThat(objectsUnder("sql-path")).anyMatch(p -> p.toString().endsWith(".parquet"));
    assertThat(s3.gate().stats(ACCESS_KEY).accepted()).isPositive();
    assertThat(logs).contains("events").doesNotContain(SECRET_KEY);
  }

  private void startCatalog(Duration credentialLifetime, String prefix) throws IOException {
    firstKey = s3.vended().size();
    server =
        s3.vendDistinctKeys(
                UnityCatalogServer.builder()
                    .storageRoot(URI.create("s3://lake/" + prefix))
                    .token(TOKEN)
                    .readOnlyToken(READ_ONLY_TOKEN),
                credentialLifetime)
            .build()
            .start();
    connection = new UnityCatalogConnection(server.uri(), Secret.of(TOKEN));
  }

  /** One credential from the catalog, asked for as the connector would, for a staging table. */
  private VendedS3Credential vendOne() throws Exception {
    HttpClient http = HttpClient.newHttpClient();
    String base = server.uri() + UnityCatalogServer.API_BASE;
    HttpResponse<String> staging =
        http.send(
            post(
                base + "/staging-tables",
                "{\"catalog_name\":\"main\",\"schema_name\":" + "\"default\",\"name\":\"stale\"}"),
            HttpResponse.BodyHandlers.ofString());
    assertThat(staging.statusCode()).as(staging.body()).isEqualTo(200);
    String id = new ObjectMapper().readTree(staging.body()).get("id").asText();
    int before = s3.vended().size();
    HttpResponse<String> vended =
        http.send(
            post(
                base + "/temporary-table-credentials",
                "{\"table_id\":\"" + id + "\",\"operation\":\"READ_WRITE\"}"),
            HttpResponse.BodyHandlers.ofString());
    assertThat(vended.statusCode()).as(vended.body()).isEqualTo(200);
    assertThat(s3.vended()).hasSize(before + 1);
    return s3.vended().get(before);
  }

  private static HttpRequest post(String uri, String json) {
    return HttpRequest.newBuilder(URI.create(uri))
        .header("Authorization", "Bearer " + TOKEN)
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(json))
        .build();
  }

  /** An S3 client that keeps the one key it is given, never renewing it. */
  private static S3Client client(VendedS3Credential credential) {
    return S3Client.builder()
        .endpointOverride(s3.endpoint())
        .region(Region.US_EAST_1)
        .forcePathStyle(true)
        .credentialsProvider(
            StaticCredentialsProvider.create(
                AwsSessionCredentials.create(
                    credential.accessKeyId(),
                    credential.secretAccessKey(),
                    credential.sessionToken())))
        .overrideConfiguration(o -> o.retryStrategy(r -> r.maxAttempts(1)))
        .build();
  }

  private DeltaSink sink(String table, Map<String, String> extraStorageOptions) {
    return sink(table, extraStorageOptions, null);
  }

  private DeltaSink sink(
      String table, Map<String, String> extraStorageOptions, Integer deltaCheckpointInterval) {
    DeltaSinkBuilder builder =
        DeltaSink.builder()
            .unityCatalog(connection)
            .tableName(table)
            .rowType(TestRows.TYPE)
            .partitionColumns("bucket")
            .hadoopOptions(s3.storageOptions())
            .hadoopOptions(extraStorageOptions);
    if (deltaCheckpointInterval != null) {
      builder.option(DeltaSinkOptions.DELTA_CHECKPOINT_INTERVAL, deltaCheckpointInterval);
    }
    return builder.build();
  }

  private void assertExactlyInCatalog(String table, long count) {
    CatalogReads.Read read = CatalogReads.read(connection, table, s3.storageOptions());
    assertThat(read.rows()).containsExactlyInAnyOrderElementsOf(TestRows.expected(count, BUCKETS));
    assertThat(read.version()).isEqualTo(server.latestVersion(table));
  }

  private static List<Path> objectsUnder(String prefix) throws IOException {
    try (Stream<Path> files = Files.walk(s3.bucketDirectory("lake").resolve(prefix))) {
      return files.filter(Files::isRegularFile).toList();
    }
  }
}
