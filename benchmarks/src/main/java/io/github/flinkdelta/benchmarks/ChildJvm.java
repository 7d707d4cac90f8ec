/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs a main class of this module in a fresh JVM with this JVM's class path and module openings.
 */
final class ChildJvm {

  /**
   * Longer than any measurement should take beyond its own running time (a soak's minutes); a run
   * stuck collecting garbage ends.
   */
  static final Duration TIMEOUT = Duration.ofMinutes(20);

  static final String EXTRA_OPTIONS = "benchmark.child-jvm-options";

  private ChildJvm() {}

  /** The module openings this JVM was started with, which Flink needs. */
  static List<String> openings() {
    return ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
        .filter(argument -> argument.startsWith("--add-opens"))
        .toList();
  }

  /**
   * JVM options for every child from the system property {@value #EXTRA_OPTIONS}, separated by
   * spaces: the build's test of the benchmark command runs its short children with the C1 compiler
   * alone, whose compilations cost a fraction of C2's on a machine of two cores.
   */
  private static List<String> extraOptions() {
    String options = System.getProperty(EXTRA_OPTIONS, "").trim();
    return options.isEmpty() ? List.of() : List.of(options.split("\\s+"));
  }

  /**
   * Runs to completion, or fails after {@code timeout}; output goes to {@code log}. Fails naming
   * the log when the JVM fails.
   */
  static void run(Class<?> main, String heap, List<String> args, Path log, Duration timeout)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx" + heap);
    command.add("-Xms" + heap);
    command.add("-Djava.awt.headless=true");
    command.add("-XX:+ExitOnOutOfMemoryError");
    command.addAll(openings());
    command.addAll(extraOptions());
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(main.getName());
    command.addAll(args);
    Files.createDirectories(log.getParent());
    Process process =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    if (!process.waitFor(timeout.toSeconds(), java.util.concurrent.TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor();
      throw new IllegalStateException(
          main.getSimpleName()
              + " "
              + args
              + " did not end within "
              + timeout.toMinutes()
              + " minutes; log "
              + log);
    }
    int exit = process.exitValue();
    if (exit != 0) {
      List<String> lines = Files.readAllLines(log);
      String cause =
          lines.stream()
              .filter(line -> line.startsWith("java.") || line.startsWith("Caused by:"))
              .filter(line -> line.contains("Error") || line.contains("Exception"))
              .findFirst()
              .orElse("see the log");
      String tail = String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
      throw new IllegalStateException(
          String.format(
              "%s %s exited with %d (%s); log %s:%n%s",
              main.getSimpleName(), args, exit, cause, log, tail));
    }
  }
}
