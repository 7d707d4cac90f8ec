/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sqlconnector;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkdelta.testkit.UnityCatalogServer;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shaded jar in the {@code lib/} of a Flink session cluster whose JobManager and two
 * TaskManagers are separate processes (see {@link SessionCluster}), with the embedded Unity Catalog
 * server of this JVM as their catalog. A SQL client process submits a checkpointed insert into a
 * catalog table; once commits have landed, the TaskManager running one of its tasks is killed
 * (SIGKILL), the cluster restarts the job from its last checkpoint on the surviving TaskManager,
 * and the table must hold exactly the rows sent. Then the Quickstart's job jar, which holds only
 * its own classes and uses the connector of {@code lib/}, is submitted through the REST API.
 */
class SessionClusterIT {

  private static final String TOKEN = "cluster-token";
  private static final Pattern JOB_ID = Pattern.compile("job-id: ([0-9a-f]{32})");
  private static final Pattern STATE = Pattern.compile("\"state\"\\s*:\\s*\"([A-Z]+)\"");
  private static final Pattern VERTEX = Pattern.compile("\"id\"\\s*:\\s*\"([0-9a-f]{32})\"");
  private static final Pattern TASK_MANAGER =
      Pattern.compile("\"taskmanager-id\"\\s*:\\s*\"tm-(\\d+)\"");

  @TempDir Path dir;

  @Test
  void aSessionClusterWithTheJarInLibSurvivesALostTaskManagerAndRunsAJobJar() throws Exception {
    long started = System.nanoTime();
    List<String> lib = new ArrayList<>(flinkJars());
    lib.add(System.getProperty("shaded.jar"));
    try (UnityCatalogServer server =
            UnityCatalogServer.builder()
                .storageRoot(dir.resolve("uc"))
                .token(TOKEN)
                .build()
                .start();
        SessionCluster cluster = startCluster(lib)) {
      progress(started, "cluster up: 1 JobManager, 2 TaskManagers registered");
      long count = 3000;
      Process client = startSqlClient(cluster, server, count);
      try {
        String jobId = awaitJobId(client, cluster);
        // Some checkpoints have committed: the job is mid-way, with state to restore.
        try {
          SessionCluster.await(
              "commits of the SQL job",
              Duration.ofMinutes(2),
              () -> committedVersion(server, "main.cluster.events") >= 3 || !client.isAlive());
        } catch (IllegalStateException e) {
          throw new AssertionError(e.getMessage() + diagnosis(cluster, jobId), e);
        }
        if (!client.isAlive()) {
          throw new AssertionError("the SQL client exited mid-job" + diagnosis(cluster, jobId));
        }
        int victim = taskManagerRunning(cluster, jobId);
        long versionAtKill = committedVersion(server, "main.cluster.events");
        cluster.killTaskManager(victim);
        progress(started, "killed tm-" + victim + " of job " + jobId);

        assertThat(client.waitFor(4, TimeUnit.MINUTES))
            .as("the SQL job finished:%s%s", clientLog(), cluster.logs())
            .isTrue();
        assertThat(client.exitValue()).as("client:%n%s%s", clientLog(), cluster.logs()).isZero();
        assertThat(state(cluster, jobId)).isEqualTo("FINISHED");
        String exceptions = cluster.get("/jobs/" + jobId + "/exceptions");
        assertThat(exceptions)
            .as("the job failed over when TaskManager tm-%s was killed", victim)
            .containsPattern("\"entries\"\\s*:\\s*\\[\\s*\\{");
        System.out.printf(
            "killed tm-%s at catalog version %s; the job failed over, its exception history:%n%s",
            victim, versionAtKill, failures(exceptions));
        assertThat(committedVersion(server, "main.cluster.events")).isGreaterThan(versionAtKill);
      } finally {
        client.destroyForcibly();
      }
      List<List<Object>> expected = new ArrayList<>();
      for (long id = 1; id <= count; id++) {
        expected.add(Arrays.asList(id, id % 2 == 0 ? "even" : "odd"));
      }
      assertThat(ShadedJarSqlIT.readThroughCatalog(server, TOKEN, "main.cluster.events"))
          .as("exactly the rows sent, none lost or repeated by the restart")
          .containsExactlyInAnyOrderElementsOf(expected);

      progress(started, "SQL job finished after the restart; " + count + " rows read back");
      runQuickstart(cluster, server);
      progress(started, "Quickstart job finished; its rows read back");
    }
  }

  /** The Quickstart's jar through {@code /jars/upload} and {@code /jars/:id/run}. */
  private void runQuickstart(SessionCluster cluster, UnityCatalogServer server) throws Exception {
    long rows = 2000;
    String upload = cluster.uploadJar(Path.of(System.getProperty("quickstart.jar")));
    Matcher jar = Pattern.compile("\"filename\"\\s*:\\s*\"[^\"]*/([^/\"]+)\"").matcher(upload);
    assertThat(jar.find()).as(upload).isTrue();
    String run =
        cluster.post(
            "/jars/" + jar.group(1) + "/run",
            "{\"entryClass\": \"io.github.flinkdelta.examples.Quickstart\", \"programArgsList\": ["
                + String.join(
                    ", ",
                    quoted(
                        "--uc-uri",
                        server.uri().toString(),
                        "--uc-token",
                        TOKEN,
                        "--uc-schema",
                        "cluster",
                        "--uc-table",
                        "clicks",
                        dir.resolve("quickstart").toString(),
                        Long.toString(rows),
                        "1000"))
                + "]}");
    Matcher job = Pattern.compile("\"jobid\"\\s*:\\s*\"([0-9a-f]{32})\"").matcher(run);
    assertThat(job.find()).as(run).isTrue();
    SessionCluster.await(
        "the Quickstart job to finish",
        Duration.ofMinutes(3),
        () -> {
          String state = state(cluster, job.group(1));
          if (state.equals("FAILED") || state.equals("CANCELED")) {
            throw new IllegalStateException(
                "Quickstart "
                    + state
                    + ": "
                    + cluster.get("/jobs/" + job.group(1) + "/exceptions"));
          }
          return state.equals("FINISHED");
        });
    List<Long> ids =
        ShadedJarSqlIT.readThroughCatalog(server, TOKEN, "main.cluster.clicks").stream()
            .map(row -> (Long) row.get(0))
            .toList();
    assertThat(ids).containsExactlyInAnyOrderElementsOf(LongStream.range(0, rows).boxed().toList());
  }

  private SessionCluster startCluster(List<String> lib) throws Exception {
    try {
      Process probe =
          new ProcessBuilder(
                  Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-version")
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .start();
      probe.waitFor(1, TimeUnit.MINUTES);
    } catch (java.io.IOException e) {
      // Only a machine that cannot start child processes at all skips this test.
      Assumptions.abort("cannot start child processes here: " + e);
    }
    return SessionCluster.start(dir.resolve("cluster"), lib, opens(), 2, 2);
  }

  private Process startSqlClient(SessionCluster cluster, UnityCatalogServer server, long count)
      throws Exception {
    Path script = dir.resolve("script.sql");
    Files.writeString(
        script,
        String.join(
            ";\n",
            "SET 'execution.target' = 'remote'",
            "SET 'rest.address' = '127.0.0.1'",
            "SET 'rest.port' = '" + cluster.restPort() + "'",
            "SET 'execution.checkpointing.interval' = '500ms'",
            "SET 'parallelism.default' = '2'",
            "CREATE CATALOG uc WITH ('type' = 'unitycatalog', 'uc.uri' = '"
                + server.uri()
                + "', 'uc.token' = '"
                + TOKEN
                + "', 'catalog' = 'main')",
            "CREATE DATABASE uc.`cluster`",
            "CREATE TABLE uc.`cluster`.events (id BIGINT, kind STRING) PARTITIONED BY (kind)",
            "CREATE TEMPORARY TABLE gen (id BIGINT) WITH ('connector' = 'datagen',"
                + " 'fields.id.kind' = 'sequence', 'fields.id.start' = '1',"
                + " 'fields.id.end' = '"
                + count
                + "', 'rows-per-second' = '150')",
            "INSERT INTO uc.`cluster`.events"
                + " SELECT id, CASE WHEN MOD(id, 2) = 0 THEN 'even' ELSE 'odd' END FROM gen",
            ""));
    Path runner = dir.resolve("SqlScript.java");
    try (var in = SessionClusterIT.class.getResourceAsStream("/SqlScript.java")) {
      Files.copy(in, runner);
    }
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx512m");
    command.addAll(SessionCluster.LEAN_JVM);
    command.addAll(opens());
    command.add("-cp");
    command.add(
        String.join(File.pathSeparator, flinkJars())
            + File.pathSeparator
            + System.getProperty("shaded.jar"));
    command.add(runner.toString());
    command.add(script.toString());
    return new ProcessBuilder(command)
        .redirectErrorStream(true)
        .redirectOutput(dir.resolve("client.log").toFile())
        .start();
  }

  private String awaitJobId(Process client, SessionCluster cluster) throws Exception {
    String[] id = new String[1];
    SessionCluster.await(
        "the SQL client to submit its job",
        Duration.ofMinutes(2),
        () -> {
          Matcher m = JOB_ID.matcher(clientLog());
          if (m.find()) {
            id[0] = m.group(1);
            return true;
          }
          if (!client.isAlive()) {
            throw new IllegalStateException(
                "the SQL client exited:\n" + clientLog() + cluster.logs());
          }
          return false;
        });
    return id[0];
  }

  /** The TaskManager (index) running the first vertex's first subtask of a job. */
  private static int taskManagerRunning(SessionCluster cluster, String jobId) {
    Matcher vertex = VERTEX.matcher(cluster.get("/jobs/" + jobId));
    while (vertex.find()) {
      if (vertex.group(1).equals(jobId)) {
        continue;
      }
      String hosts =
          cluster.get("/jobs/" + jobId + "/vertices/" + vertex.group(1) + "/taskmanagers");
      Matcher tm = TASK_MANAGER.matcher(hosts);
      if (tm.find()) {
        return Integer.parseInt(tm.group(1));
      }
    }
    throw new IllegalStateException("no TaskManager runs job " + jobId);
  }

  private static void progress(long started, String what) {
    System.out.printf("[%5.1f s] %s%n", (System.nanoTime() - started) / 1e9, what);
  }

  /** Each failure of a job's exception history: exception, task and TaskManager. */
  private static String failures(String exceptions) {
    Matcher m =
        Pattern.compile(
                "\"exceptionName\"\\s*:\\s*\"([^\"]+)\".*?\"taskName\"\\s*:\\s*\"([^\"]+)\""
                    + ".*?\"taskManagerId\"\\s*:\\s*\"([^\"]+)\"")
            .matcher(exceptions);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      out.append(String.format("  %s in %s on %s%n", m.group(1), m.group(2), m.group(3)));
    }
    return out.toString();
  }

  private String diagnosis(SessionCluster cluster, String jobId) {
    String job;
    try {
      job = cluster.get("/jobs/" + jobId) + "\n" + cluster.get("/jobs/" + jobId + "/exceptions");
    } catch (RuntimeException e) {
      job = e.toString();
    }
    return "\njob: " + job + "\nclient:\n" + clientLog() + cluster.logs();
  }

  private static String state(SessionCluster cluster, String jobId) {
    Matcher m = STATE.matcher(cluster.get("/jobs/" + jobId));
    return m.find() ? m.group(1) : "UNKNOWN";
  }

  private static long committedVersion(UnityCatalogServer server, String table) {
    try {
      return server.latestVersion(table);
    } catch (RuntimeException notYetCreated) {
      return -1;
    }
  }

  private String clientLog() {
    try {
      return Files.readString(dir.resolve("client.log"));
    } catch (java.io.IOException e) {
      return e.toString();
    }
  }

  private static List<String> flinkJars() throws java.io.IOException {
    String classpath = Files.readString(Path.of(System.getProperty("flink.classpath"))).trim();
    return Arrays.asList(classpath.split(File.pathSeparator));
  }

  private static List<String> opens() {
    return Arrays.asList(System.getProperty("flink.jvm.opens").trim().split("\\s+"));
  }

  private static List<String> quoted(String... values) {
    return Arrays.stream(values).map(v -> "\"" + v.replace("\\", "\\\\") + "\"").toList();
  }
}
