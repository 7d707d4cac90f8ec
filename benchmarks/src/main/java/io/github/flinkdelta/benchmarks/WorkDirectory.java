/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The benchmark's scratch directory. A default run writes several gigabytes of tables into it; once
 * every measurement has reported, only the children's logs and results are kept.
 */
final class WorkDirectory {

  private WorkDirectory() {}

  /**
   * Deletes everything under {@code work} but each run's {@code *.log} and {@code *.json} files
   * directly in its directory (a table's own JSON, its Delta log, goes).
   */
  static void pruneToLogs(Path work) throws IOException {
    List<Path> paths;
    try (Stream<Path> walk = Files.walk(work)) {
      paths = walk.sorted(Comparator.reverseOrder()).toList();
    }
    for (Path path : paths) {
      if (Files.isDirectory(path)) {
        try (Stream<Path> entries = Files.list(path)) {
          if (entries.findAny().isEmpty() && !path.equals(work)) {
            Files.delete(path);
          }
        }
      } else if (!isKept(work, path)) {
        Files.delete(path);
      }
    }
  }

  private static boolean isKept(Path work, Path file) {
    String name = file.getFileName().toString();
    return work.relativize(file).getNameCount() == 2
        && (name.endsWith(".log") || name.endsWith(".json"));
  }
}
