/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sqlconnector;

import static org.assertj.core.api.Assertions.assertThat;

import io.delta.kernel.defaults.engine.DefaultEngine;
import io.delta.kernel.engine.Engine;
import io.github.flinkdelta.core.storage.HadoopConfigurations;
import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.testkit.UnityCatalogServer;
import io.github.flinkdelta.uc.Secret;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import io.github.flinkdelta.uc.internal.UnityCatalogClient;
import io.github.flinkdelta.uc.internal.UnityCatalogTable;
import io.github.flinkdelta.uc.internal.UnityCatalogTableName;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shaded jar as Flink's {@code lib/} would hold it: a child JVM whose classpath is Flink's own
 * jars and the shaded jar, nothing of this project's modules or their dependencies, runs a SQL
 * script that creates a Unity Catalog catalog, a schema and a table, and streams rows into it. The
 * rows are then read back through the catalog from this JVM.
 */
class ShadedJarSqlIT {

  private static final String TOKEN = "lib-token";

  @TempDir Path dir;

  @Test
  void aSqlScriptOnFlinkAndTheShadedJarAloneWritesThroughTheCatalog() throws Exception {
    try (UnityCatalogServer server =
        UnityCatalogServer.builder().storageRoot(dir.resolve("uc")).token(TOKEN).build().start()) {
      long count = 500;
      Path script = dir.resolve("script.sql");
      Files.writeString(
          script,
          String.join(
              ";\n",
              "SET 'execution.checkpointing.interval' = '300ms'",
              "SET 'parallelism.default' = '2'",
              "SET 'restart-strategy.type' = 'none'",
              "CREATE CATALOG uc WITH ('type' = 'unitycatalog', 'uc.uri' = '"
                  + server.uri()
                  + "', 'uc.token' = '"
                  + TOKEN
                  + "', 'catalog' = 'main')",
              "CREATE DATABASE uc.lib",
              "CREATE TABLE uc.lib.events (id BIGINT, kind STRING) PARTITIONED BY (kind)",
              "CREATE TEMPORARY TABLE gen (id BIGINT) WITH ('connector' = 'datagen',"
                  + " 'fields.id.kind' = 'sequence', 'fields.id.start' = '1',"
                  + " 'fields.id.end' = '"
                  + count
                  + "', 'rows-per-second' = '500')",
              "INSERT INTO uc.lib.events"
                  + " SELECT id, CASE WHEN MOD(id, 2) = 0 THEN 'even' ELSE 'odd' END FROM gen",
              ""));

      Process child = startChild(script);
      boolean finished = child.waitFor(2, TimeUnit.MINUTES);
      String output = Files.readString(dir.resolve("child.log"));
      if (!finished) {
        child.destroyForcibly();
      }
      assertThat(finished).as("the child JVM finished: %s", output).isTrue();
      assertThat(child.exitValue()).as("child output:%n%s", output).isZero();
      assertThat(output).doesNotContain(TOKEN);

      List<List<Object>> expected = new ArrayList<>();
      for (long id = 1; id <= count; id++) {
        expected.add(Arrays.asList(id, id % 2 == 0 ? "even" : "odd"));
      }
      assertThat(readThroughCatalog(server, TOKEN, "main.lib.events"))
          .containsExactlyInAnyOrderElementsOf(expected);
    }
  }

  private Process startChild(Path script) throws Exception {
    String flinkClasspath = Files.readString(Path.of(System.getProperty("flink.classpath"))).trim();
    Path runner = dir.resolve("SqlScript.java");
    try (var in = ShadedJarSqlIT.class.getResourceAsStream("/SqlScript.java")) {
      Files.copy(in, runner);
    }
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx1g");
    command.addAll(Arrays.asList(System.getProperty("flink.jvm.opens").trim().split("\\s+")));
    command.add("-cp");
    command.add(flinkClasspath + File.pathSeparator + System.getProperty("shaded.jar"));
    command.add(runner.toString());
    command.add(script.toString());
    return new ProcessBuilder(command)
        .redirectErrorStream(true)
        .redirectOutput(dir.resolve("child.log").toFile())
        .start();
  }

  static List<List<Object>> readThroughCatalog(
      UnityCatalogServer server, String token, String name) {
    UnityCatalogConnection connection = new UnityCatalogConnection(server.uri(), Secret.of(token));
    var conf = HadoopConfigurations.of(Map.of());
    try (UnityCatalogClient client = new UnityCatalogClient(connection, conf)) {
      UnityCatalogTable table = client.find(UnityCatalogTableName.parse(name)).orElseThrow();
      Engine engine = DefaultEngine.create(conf);
      return DeltaTableReader.read(engine, client.loadSnapshot(engine, table));
    }
  }
}
