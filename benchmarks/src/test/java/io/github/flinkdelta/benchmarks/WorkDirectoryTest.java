/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkDirectoryTest {

  @TempDir Path work;

  @Test
  void pruningKeepsOnlyLogsAndResults() throws Exception {
    Path run = Files.createDirectories(work.resolve("partitioned-delta-path-1"));
    Files.writeString(run.resolve("run.log"), "log");
    Files.writeString(run.resolve("result.json"), "{}");
    Path data = Files.createDirectories(run.resolve("delta-table/country=C1"));
    Files.write(data.resolve("part-0.snappy.parquet"), new byte[1024]);
    Path log = Files.createDirectories(work.resolve("large-table/table/_delta_log"));
    Files.writeString(log.resolve("00000000000000000000.json"), "{}");

    WorkDirectory.pruneToLogs(work);

    try (Stream<Path> left = Files.walk(work)) {
      assertThat(left.filter(Files::isRegularFile).map(work::relativize).map(Path::toString))
          .containsExactlyInAnyOrder(
              "partitioned-delta-path-1/run.log", "partitioned-delta-path-1/result.json");
    }
    assertThat(run.resolve("delta-table")).doesNotExist();
    assertThat(work.resolve("large-table")).doesNotExist();
  }
}
