package io.github.flinkdelta.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.s3testkit.S3ProxyProcess;
import io.github.flinkdelta.sink.DeltaSink;
import io.github.flinkdelta.testkit.UnityCatalogServer;
import io.github.flinkdelta.uc.Secret;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
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

/**
 * Unity Catalog managed tables on S3: s3proxy speaks the S3 protocol on loopback (a child JVM),
 * hadoop-aws's S3A writes to it, and the only keys the job has are the ones the catalog vends,
 * renewed through {@code unitycatalog-hadoop} as they expire. Also a SQL path table on the same S3,
 * configured through {@code hadoop.*} table options.
 */
class UnityCatalogS3ITCase {

  @RegisterExtension static final FlinkCluster FLINK = FlinkCluster.create();

  @RegisterExtension final SharedObjectsExtension shared = SharedObjectsExtension.create();
  private final FaultCounter injected = FaultCounter.in(shared);

  private static final int BUCKETS = 4;
  private static final String ACCESS_KEY = "vended-access-key";
  private static final String SECRET_KEY = "vended-secret-" + java.util.UUID.randomUUID();
  private static final String TOKEN = "uc-test-token";
  private static final String TABLE_CREDENTIALS = "POST /temporary-table-credentials";
  private static final String STAGING_CREDENTIALS =
      "GET /delta/v1/staging-tables/{table_id}/credentials";

  @TempDir static Path s3Directory;
  private static S3ProxyProcess s3;

  private UnityCatalogServer server;
  private UnityCatalogConnection connection;

  @BeforeAll
  static void startS3() {
    s3 = S3ProxyProcess.start(s3Directory, ACCESS_KEY, SECRET_KEY);
    s3.createBucket("lake");
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
    // The table's objects are in the bucket, Parquet files and commits alike.
    List<Path> objects = objectsUnder("managed-once");
    assertThat(objects).anyMatch(p -> p.toString().endsWith(".parquet"));
    assertThat(objects).anyMatch(p -> p.toString().endsWith("00000000000000000001.json"));
  }

  @Test
  void credentialsExpiringDuringTheJobAreRenewed() throws Exception {
    // Each vended credential lives 3 s and is renewed 1 s before it expires; the job runs ~8 s.
    startCatalog(Duration.ofSeconds(3), "renewed");
    long count = 4_000;
    StreamExecutionEnvironment env = FLINK.job().checkpointEveryMillis(300).restarts(3).env();
    TestRows.source(env, count, 500, BUCKETS)
        .sinkTo(
            sink("main.default.renewed", Map.of("fs.unitycatalog.renewal.leadTimeMillis", "1000")));
    int before = server.faults().calls(TABLE_CREDENTIALS);
    env.execute("credentials expire");

    assertExactlyInCatalog("main.default.renewed", count);
    // The two writers and the committer fetched credentials once each when they opened the table
    // (a fresh start opens it nowhere else); anything beyond that is a renewal. How many renewals
    // a run makes depends on its timing, so only their presence is asserted.
    assertThat(server.faults().calls(TABLE_CREDENTIALS) - before).isGreaterThan(3);
  }

  @Test
  void aSqlPathTableOnS3TakesItsStorageOptionsFromHadoopPrefixedOptions() throws Exception {
    String table = "s3a://lake/sql-path/events";
    StringBuilder options = new StringBuilder();
    Map<String, String> storage = new java.util.HashMap<>(storageOptions());
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
    assertThat(logs).contains("events").doesNotContain(SECRET_KEY);
  }

  private void startCatalog(Duration credentialLifetime, String prefix) throws IOException {
    server =
        UnityCatalogServer.builder()
            .storageRoot(URI.create("s3://lake/" + prefix))
            .token(TOKEN)
            .s3Credentials(
                new UnityCatalogServer.S3Credentials(
                    ACCESS_KEY, SECRET_KEY, "session-" + prefix, credentialLifetime))
            .build()
            .start();
    connection = new UnityCatalogConnection(server.uri(), Secret.of(TOKEN));
  }

  /** Where S3 is; the keys come from the catalog, never from here. */
  private static Map<String, String> storageOptions() {
    return Map.of(
        "fs.s3a.endpoint", s3.endpoint().toString(),
        "fs.s3a.endpoint.region", "us-east-1",
        "fs.s3a.path.style.access", "true",
        "fs.s3a.connection.ssl.enabled", "false");
  }

  private DeltaSink sink(String table, Map<String, String> extraStorageOptions) {
    return DeltaSink.builder()
        .unityCatalog(connection)
        .tableName(table)
        .rowType(TestRows.TYPE)
        .partitionColumns("bucket")
        .hadoopOptions(storageOptions())
        .hadoopOptions(extraStorageOptions)
        .build();
  }

  private void assertExactlyInCatalog(String table, long count) {
    CatalogReads.Read read = CatalogReads.read(connection, table, storageOptions());
    assertThat(read.rows()).containsExactlyInAnyOrderElementsOf(TestRows.expected(count, BUCKETS));
    assertThat(read.version()).isEqualTo(server.latestVersion(table));
  }

  private static List<Path> objectsUnder(String prefix) throws IOException {
    try (Stream<Path> files = Files.walk(s3.bucketDirectory("lake").resolve(prefix))) {
      return files.filter(Files::isRegularFile).toList();
    }
  }
}
