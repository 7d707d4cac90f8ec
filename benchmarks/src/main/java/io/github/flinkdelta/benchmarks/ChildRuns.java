/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Runs each measurement's main class in a JVM of its own ({@link ChildJvm}), with its log and its
 * figures in a directory named for it under the work directory.
 */
final class ChildRuns {

  private ChildRuns() {}

  /**
   * Runs a measurement in a JVM of its own; a measurement that fails (a target missed by running
   * out of memory, say) is reported as failed, with its cause, and the others still run.
   */
  static Figures measure(Class<?> main, String heap, Path work, String... args) {
    return measure(main, heap, ChildJvm.TIMEOUT, work, args);
  }

  static Figures measure(Class<?> main, String heap, Duration timeout, Path work, String... args) {
    try {
      return child(main, heap, timeout, work, args);
    } catch (Exception e) {
      String message = String.valueOf(e.getMessage());
      return new Figures(main.getSimpleName() + " " + String.join(" ", args))
          .put("heap", heap)
          .put("failed", message.lines().findFirst().orElse(message));
    }
  }

  /** Runs a measurement's main class in a JVM with {@code heap} and reads its figures. */
  static Figures child(Class<?> main, String heap, Path work, String... args) throws Exception {
    return child(main, heap, ChildJvm.TIMEOUT, work, args);
  }

  /** The log of the run of {@code main} with {@code args} under {@code work}. */
  static Path logOf(Class<?> main, Path work, String... args) {
    return work.resolve(main.getSimpleName() + "-" + String.join("-", args)).resolve("run.log");
  }

  private static Figures child(
      Class<?> main, String heap, Duration timeout, Path work, String... args) throws Exception {
    Path dir = Files.createDirectories(logOf(main, work, args).getParent());
    String name = dir.getFileName().toString();
    Path result = dir.resolve("result.json");
    List<String> childArgs = new ArrayList<>(Arrays.asList(args));
    childArgs.add(dir.toString());
    childArgs.add(result.toString());
    System.out.printf("%s (heap %s) ...%n", name, heap);
    ChildJvm.run(main, heap, childArgs, dir.resolve("run.log"), timeout);
    return Figures.read(result).put("heap", heap);
  }

  static Map<String, Object> report(Figures figures) {
    System.out.print(figures);
    System.out.println();
    return figures.values();
  }
}
