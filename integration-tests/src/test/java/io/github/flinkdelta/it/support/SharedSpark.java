/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.support;

import io.github.flinkdelta.sparktestkit.SparkSql;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;

/**
 * One Spark (in a child JVM, {@link SparkSql}) for every test class of this JVM that reads or
 * changes tables with Spark: started by the first that asks, stopped when the JVM exits. Starting
 * Spark takes longer than most tests that use it.
 */
public final class SharedSpark {

  private static SparkSql spark;

  private SharedSpark() {}

  /** The JVM's Spark, started now if no test class has asked before. */
  public static synchronized SparkSql get() {
    if (spark == null) {
      Path directory;
      try {
        directory = Files.createTempDirectory("shared-spark");
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      SparkSql started = SparkSql.start(directory, Map.of());
      Runtime.getRuntime()
          .addShutdownHook(
              new Thread(
                  () -> {
                    started.close();
                    delete(directory);
                  },
                  "shared-spark-stop"));
      spark = started;
    }
    return spark;
  }

  private static void delete(Path directory) {
    try (Stream<Path> paths = Files.walk(directory)) {
      paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException e) {
      // Best effort, at JVM exit: the directory is under the system's temp directory.
    }
  }
}
