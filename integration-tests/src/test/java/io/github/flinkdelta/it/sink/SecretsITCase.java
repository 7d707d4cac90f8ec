/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.sink;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.flinkdelta.it.support.CatalogReads;
import io.github.flinkdelta.it.support.FlinkCluster;
import io.github.flinkdelta.it.support.LogCapture;
import io.github.flinkdelta.testkit.UnityCatalogServer;
import io.github.flinkdelta.testkit.UnityCatalogServerExtension;
import io.github.flinkdelta.uc.Secret;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.flink.api.common.JobID;
import org.apache.flink.client.program.ClusterClient;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.InjectClusterClient;
import org.apache.flink.util.InstantiationUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A full run with known secrets (the catalog token, and a storage secret key given as a {@code
 * hadoop.} option) leaves them nowhere a user or an operator can read: not in the logs of the run,
 * not in the job's configuration, plan or metrics as Flink's REST API shows them, and not in the
 * bytes of its savepoint.
 */
class SecretsITCase {

  @RegisterExtension static final FlinkCluster FLINK = FlinkCluster.create();

  private static final String TOKEN = "uc-secret-" + UUID.randomUUID();
  private static final String STORAGE_SECRET = "storage-secret-" + UUID.randomUUID();

  @TempDir Path dir;

  @RegisterExtension
  final UnityCatalogServerExtension catalog =
      new UnityCatalogServerExtension(uc -> uc.token(TOKEN));

  @Test
  void secretsReachNeitherLogsNorRestNorSavepoints(@InjectClusterClient ClusterClient<?> cluster)
      throws Exception {
    UnityCatalogServer server = catalog.server();
    String logs;
    String savepoint;
    List<String> rest = new ArrayList<>();
    try (LogCapture capture = new LogCapture()) {
      StreamTableEnvironment sql =
          StreamTableEnvironment.create(FLINK.job().checkpointEveryMillis(200).env());
      sql.executeSql(
          "CREATE TEMPORARY TABLE gen (id BIGINT, bucket INT) WITH ('connector' = 'datagen',"
              + " 'rows-per-second' = '500', 'fields.bucket.min' = '0', 'fields.bucket.max' = '3')");
      sql.executeSql(
          "CREATE TABLE events (id BIGINT, bucket INT) PARTITIONED BY (bucket) WITH"
              + " ('connector' = 'delta', 'uc.uri' = '"
              + server.uri()
              + "', 'uc.token' = '"
              + TOKEN
              + "', 'uc.table' = 'main.default.secret_events',"
              + " 'hadoop.fs.s3a.secret.key' = '"
              + STORAGE_SECRET
              + "')");
      TableResult insert = sql.executeSql("INSERT INTO events SELECT id, bucket FROM gen");
      JobClient job = insert.getJobClient().orElseThrow();
      waitForVersion(server, "main.default.secret_events", 3);

      rest.addAll(restViews(cluster.getWebInterfaceURL(), job.getJobID()));
      savepoint =
          job.stopWithSavepoint(
                  false,
                  dir.resolve("savepoints").toUri().toString(),
                  SavepointFormatType.CANONICAL)
              .get(1, TimeUnit.MINUTES);
      logs = capture.text();
    }

    assertThat(
            CatalogReads.rows(
                new UnityCatalogConnection(server.uri(), Secret.of(TOKEN)),
                "main.default.secret_events"))
        .isNotEmpty();
    assertThat(logs).contains("main.default.secret_events");
    assertThat(logs).doesNotContain(TOKEN).doesNotContain(STORAGE_SECRET);
    assertThat(rest).hasSizeGreaterThan(3);
    assertThat(String.join("\n", rest))
        .contains("secret_events")
        .doesNotContain(TOKEN)
        .doesNotContain(STORAGE_SECRET);
    assertNotInFiles(Path.of(URI.create(savepoint)), TOKEN, STORAGE_SECRET);
  }

  /**
   * Secrets given by value travel in the job graph (the README says so); given by reference ({@code
   * ${env.NAME}}) only the variable's name does, and the tasks read the value where they run: the
   * catalog, which refuses any other token, accepts the job's commits.
   */
  @Test
  void secretsGivenByReferenceStayOutOfTheJobGraph() throws Exception {
    String token = System.getenv("FLINK_DELTA_TEST_UC_TOKEN");
    String storageSecret = System.getenv("FLINK_DELTA_TEST_STORAGE_SECRET");
    assertThat(token).as("set by the build for this test").isNotBlank();
    assertThat(storageSecret).isNotBlank();
    try (UnityCatalogServer server =
        UnityCatalogServer.builder()
            .token(token)
            .storageRoot(dir.resolve("storage").toUri())
            .build()
            .start()) {
      String byReference =
          "'uc.token' = '${env.FLINK_DELTA_TEST_UC_TOKEN}',"
              + " 'hadoop.fs.s3a.secret.key' = '${env.FLINK_DELTA_TEST_STORAGE_SECRET}'";
      String byValue =
          "'uc.token' = '" + token + "', 'hadoop.fs.s3a.secret.key' = '" + storageSecret + "'";

      assertThat(jobGraph(server, "by_reference", byReference))
          .contains("FLINK_DELTA_TEST_UC_TOKEN")
          .doesNotContain(token)
          .doesNotContain(storageSecret);
      assertThat(jobGraph(server, "by_value", byValue)).contains(token).contains(storageSecret);

      tables(FLINK.job().checkpointEveryMillis(200).env(), server, "by_reference", byReference)
          .executeSql("INSERT INTO t SELECT * FROM gen")
          .await(2, TimeUnit.MINUTES);
      assertThat(
              CatalogReads.rows(
                  new UnityCatalogConnection(server.uri(), Secret.of(token)),
                  "main.default.by_reference"))
          .hasSize(500);
    }
  }

  /** The bytes of the job graph of an insert into table {@code name}, as a client submits it. */
  private static String jobGraph(UnityCatalogServer server, String name, String secrets)
      throws Exception {
    StreamExecutionEnvironment env = FLINK.job().checkpointEveryMillis(200).env();
    tables(env, server, name, secrets)
        .createStatementSet()
        .addInsertSql("INSERT INTO t SELECT * FROM gen")
        .attachAsDataStream();
    JobGraph graph = env.getStreamGraph().getJobGraph();
    return new String(InstantiationUtil.serializeObject(graph), StandardCharsets.ISO_8859_1);
  }

  private static StreamTableEnvironment tables(
      StreamExecutionEnvironment env, UnityCatalogServer server, String name, String secrets) {
    StreamTableEnvironment sql = StreamTableEnvironment.create(env);
    sql.executeSql(
        "CREATE TEMPORARY TABLE gen (id BIGINT, bucket INT) WITH ('connector' = 'datagen',"
            + " 'number-of-rows' = '500', 'rows-per-second' = '1000')");
    sql.executeSql(
        "CREATE TEMPORARY TABLE t (id BIGINT, bucket INT) WITH ('connector' = 'delta', 'uc.uri' ="
            + " '"
            + server.uri()
            + "', 'uc.table' = 'main.default."
            + name
            + "', "
            + secrets
            + ")");
    return sql;
  }

  /** The job's configuration, plan, and every vertex's metric names and values. */
  private static List<String> restViews(String webUrl, JobID job) throws Exception {
    HttpClient http = HttpClient.newHttpClient();
    String base = webUrl + "/jobs/" + job;
    List<String> views = new ArrayList<>();
    views.add(get(http, base));
    views.add(get(http, base + "/config"));
    String plan = get(http, base + "/plan");
    views.add(plan);
    for (JsonNode node : new ObjectMapper().readTree(plan).path("plan").path("nodes")) {
      String vertex = base + "/vertices/" + node.path("id").asText();
      String names = get(http, vertex + "/metrics");
      List<String> ids = new ArrayList<>();
      new ObjectMapper().readTree(names).forEach(m -> ids.add(m.path("id").asText()));
      views.add(names);
      for (int i = 0; i < ids.size(); i += 20) {
        String some = String.join(",", ids.subList(i, Math.min(ids.size(), i + 20)));
        views.add(
            get(
                http,
                vertex
                    + "/metrics?get="
                    + java.net.URLEncoder.encode(some, StandardCharsets.UTF_8)));
      }
    }
    return views;
  }

  private static String get(HttpClient http, String url) throws Exception {
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(url).isEqualTo(200);
    return response.body();
  }

  private static void assertNotInFiles(Path root, String... secrets) throws IOException {
    List<Path> files;
    try (Stream<Path> walk = Files.walk(root)) {
      files = walk.filter(Files::isRegularFile).toList();
    }
    assertThat(files).isNotEmpty();
    for (Path file : files) {
      String bytes = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
      for (String secret : secrets) {
        assertThat(bytes).as("%s holds a secret", file).doesNotContain(secret);
      }
    }
  }

  private static void waitForVersion(UnityCatalogServer server, String table, long version)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
    while (latest(server, table) < version) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(table + " never reached version " + version);
      }
      Thread.sleep(50);
    }
  }

  private static long latest(UnityCatalogServer server, String table) {
    try {
      return server.latestVersion(table);
    } catch (RuntimeException e) {
      return -1;
    }
  }
}
