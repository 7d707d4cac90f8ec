/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sparktestkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The child's life: one that cannot start is reported with its log, close ends it, and a statement
 * that outruns the timeout takes it down.
 */
class SparkSqlLifecycleTest {

  @TempDir Path directory;

  @Test
  void aChildThatDiesAtStartIsReportedWithTheEndOfItsLog() {
    assertThatThrownBy(() -> SparkSql.start(directory, Map.of("spark.master", "no-such-master")))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("The Spark child exited with code 1 while starting Spark.")
        .hasMessageContaining(directory.resolve("spark-sql.log").toString())
        .hasMessageContaining("Could not parse Master URL: 'no-such-master'");
  }

  @Test
  void closeStopsTheChild() throws Exception {
    SparkSql spark = SparkSql.start(directory, Map.of());
    ProcessHandle child = sparkChild();
    assertThat(spark.query("SELECT 1")).containsExactly(List.of("1"));

    long closing = System.nanoTime();
    spark.close();

    child.onExit().get(1, TimeUnit.SECONDS);
    // Stopped on request, not killed after the ten seconds close grants.
    assertThat(Duration.ofNanos(System.nanoTime() - closing)).isLessThan(Duration.ofSeconds(10));
    assertThatThrownBy(() -> spark.query("SELECT 1"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("This SparkSql is closed");
  }

  @Test
  void aStatementThatOutrunsTheTimeoutKillsTheChild() throws Exception {
    try (SparkSql spark = SparkSql.start(directory, Map.of())) {
      ProcessHandle child = sparkChild();
      spark.setStatementTimeout(Duration.ofSeconds(3));

      assertThatThrownBy(() -> spark.query("SELECT count(*) FROM range(0, 1000000000000000)"))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageStartingWith("The Spark child was killed after PT3S without an answer")
          .hasMessageContaining("range(0, 1000000000000000)")
          .hasMessageContaining(spark.logFile().toString());

      child.onExit().get(10, TimeUnit.SECONDS);
      assertThatThrownBy(() -> spark.query("SELECT 1"))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageStartingWith("The Spark child was killed after PT3S");
    }
  }

  /** The one Spark child of this JVM: tests in this class run one at a time. */
  private static ProcessHandle sparkChild() {
    return ProcessHandle.current()
        .children()
        .filter(p -> p.info().commandLine().orElse("").contains(SparkSqlServer.class.getName()))
        .reduce(
            (a, b) -> {
              throw new IllegalStateException("More than one Spark child: " + a + ", " + b);
            })
        .orElseThrow(() -> new IllegalStateException("No Spark child"));
  }
}
