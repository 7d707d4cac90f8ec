/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/** The benchmark command's options, parsed and checked: see {@link BenchmarkMain} for each. */
record BenchmarkOptions(
    long rows,
    int repeats,
    List<String> contenders,
    List<String> scenarios,
    Set<String> sections,
    int soakMinutes,
    String soakFlavour,
    long soakCheckpointMs,
    long catchUpRows,
    long changes,
    long keys,
    long indexRows,
    long readLimitSeconds,
    List<String> upsertContenders,
    List<String> upsertStateBackends,
    long compactionCommits,
    int compactionRows,
    String compactionScenario,
    int compactionTriggerCommits,
    long compactionCheckpointMs,
    long readRows,
    int readLatencyVersions,
    int slowStorageFiles,
    long slowStorageDelayMs,
    List<Integer> dynamicTables,
    long dynamicRows,
    long dynamicKeys,
    List<String> dynamicModes,
    List<String> dynamicContenders,
    int dynamicRepeats,
    long dynamicCheckpointMs,
    long dynamicCommitIntervalMs,
    String dynamicHeap,
    Path out,
    boolean full,
    boolean objectReuse,
    long orderSeed) {

  private static final List<String> DEFAULT_SECTIONS =
      List.of("comparison", "jmh", "state", "partitions", "large");
  private static final List<String> SECTIONS =
      List.of(
          "comparison",
          "jmh",
          "state",
          "partitions",
          "large",
          "soak",
          "catch-up",
          "upsert",
          "compaction",
          "read",
          "dynamic");

  boolean runs(String section) {
    return sections.contains(section);
  }

  static BenchmarkOptions parse(String[] args) {
    boolean full = Arrays.asList(args).contains("--full");
    boolean objectReuse = Arrays.asList(args).contains("--object-reuse");
    long rows = full ? 30_000_000 : 10_000_000;
    int repeats = 3;
    List<String> contenders = Contender.NAMES;
    List<String> scenarios = List.of(Scenario.UNPARTITIONED.id(), Scenario.PARTITIONED.id());
    List<String> sections = DEFAULT_SECTIONS;
    int soakMinutes = 0;
    String soakFlavour = "append";
    long soakCheckpointMs = 1_000;
    long catchUpRows = 10_000_000;
    long changes = 10_000_000;
    long keys = 1_000_000;
    long indexRows = 10_000_000;
    long readLimitSeconds = 600;
    List<String> upsertContenders = UpsertContender.NAMES;
    List<String> upsertStateBackends = List.of("hashmap", "rocksdb", "rocksdb-incremental");
    long compactionCommits = 3_600;
    int compactionRows = 10_000;
    String compactionScenario = Scenario.UNPARTITIONED.id();
    int compactionTriggerCommits = 60;
    long compactionCheckpointMs = 100;
    long readRows = 10_000_000;
    int readLatencyVersions = 60;
    int slowStorageFiles = 40;
    long slowStorageDelayMs = 200;
    List<Integer> dynamicTables = List.of(10, 100, 1_000);
    long dynamicRows = 10_000_000;
    long dynamicKeys = 1_000_000;
    List<String> dynamicModes = List.of("append", "upsert");
    List<String> dynamicContenders = DynamicContender.NAMES;
    int dynamicRepeats = 1;
    long dynamicCheckpointMs = DynamicRun.CHECKPOINT_INTERVAL_MS;
    long dynamicCommitIntervalMs = 0;
    String dynamicHeap = DynamicRun.HEAP;
    Path out = Path.of("target");
    long orderSeed = System.nanoTime();
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--full", "--object-reuse" -> {}
        case "--rows" -> rows = Long.parseLong(args[++i]);
        case "--repeats" -> repeats = Integer.parseInt(args[++i]);
        case "--contenders" -> contenders = List.of(args[++i].split(","));
        case "--scenarios" -> scenarios = List.of(args[++i].split(","));
        case "--sections" -> sections = List.of(args[++i].split(","));
        case "--soak-minutes" -> soakMinutes = Integer.parseInt(args[++i]);
        case "--soak-flavour" -> soakFlavour = args[++i];
        case "--soak-checkpoint-ms" -> soakCheckpointMs = Long.parseLong(args[++i]);
        case "--catch-up-rows" -> catchUpRows = Long.parseLong(args[++i]);
        case "--changes" -> changes = Long.parseLong(args[++i]);
        case "--keys" -> keys = Long.parseLong(args[++i]);
        case "--index-rows" -> indexRows = Long.parseLong(args[++i]);
        case "--read-limit-seconds" -> readLimitSeconds = Long.parseLong(args[++i]);
        case "--upsert-contenders" -> upsertContenders = List.of(args[++i].split(","));
        case "--upsert-state-backends" -> upsertStateBackends = List.of(args[++i].split(","));
        case "--compaction-commits" -> compactionCommits = Long.parseLong(args[++i]);
        case "--compaction-rows" -> compactionRows = Integer.parseInt(args[++i]);
        case "--compaction-scenario" -> compactionScenario = args[++i];
        case "--compaction-trigger-commits" ->
            compactionTriggerCommits = Integer.parseInt(args[++i]);
        case "--compaction-checkpoint-ms" -> compactionCheckpointMs = Long.parseLong(args[++i]);
        case "--read-rows" -> readRows = Long.parseLong(args[++i]);
        case "--read-latency-versions" -> readLatencyVersions = Integer.parseInt(args[++i]);
        case "--slow-storage-files" -> slowStorageFiles = Integer.parseInt(args[++i]);
        case "--slow-storage-delay-ms" -> slowStorageDelayMs = Long.parseLong(args[++i]);
        case "--dynamic-tables" ->
            dynamicTables = Arrays.stream(args[++i].split(",")).map(Integer::valueOf).toList();
        case "--dynamic-rows" -> dynamicRows = Long.parseLong(args[++i]);
        case "--dynamic-keys" -> dynamicKeys = Long.parseLong(args[++i]);
        case "--dynamic-modes" -> dynamicModes = List.of(args[++i].split(","));
        case "--dynamic-contenders" -> dynamicContenders = List.of(args[++i].split(","));
        case "--dynamic-repeats" -> dynamicRepeats = Integer.parseInt(args[++i]);
        case "--dynamic-checkpoint-ms" -> dynamicCheckpointMs = Long.parseLong(args[++i]);
        case "--dynamic-commit-interval-ms" -> dynamicCommitIntervalMs = Long.parseLong(args[++i]);
        case "--dynamic-heap" -> dynamicHeap = args[++i];
        case "--out" -> out = Path.of(args[++i]);
        case "--order-seed" -> orderSeed = Long.parseLong(args[++i]);
        default -> throw new IllegalArgumentException("Unknown option " + args[i]);
      }
    }
    contenders.forEach(Contender::named);
    upsertContenders.forEach(UpsertContender::named);
    if (!List.of("append", "upsert", "upsert-foreign").contains(soakFlavour)) {
      throw new IllegalArgumentException(
          "Unknown soak flavour '" + soakFlavour + "'; known: append, upsert, upsert-foreign");
    }
    for (String backend : upsertStateBackends) {
      if (!List.of("hashmap", "rocksdb", "rocksdb-incremental").contains(backend)) {
        throw new IllegalArgumentException(
            "Unknown state backend '"
                + backend
                + "'; known: hashmap, rocksdb, rocksdb-incremental");
      }
    }
    scenarios.forEach(Scenario::of);
    Scenario.of(compactionScenario);
    // Each source subtask releases its share of a commit's rows after every checkpoint.
    if (compactionRows <= 0 || compactionRows % CompactionRun.PARALLELISM != 0) {
      throw new IllegalArgumentException(
          "--compaction-rows must be a positive multiple of "
              + CompactionRun.PARALLELISM
              + ", got "
              + compactionRows);
    }
    if (compactionCommits <= 0 || compactionTriggerCommits <= 0 || compactionCheckpointMs <= 0) {
      throw new IllegalArgumentException(
          "--compaction-commits, --compaction-trigger-commits and --compaction-checkpoint-ms"
              + " must be positive");
    }
    if (readRows <= 0 || readLatencyVersions < 0) {
      throw new IllegalArgumentException(
          "--read-rows must be positive and --read-latency-versions not negative");
    }
    dynamicModes.forEach(DynamicWorkload.Mode::of);
    dynamicContenders.forEach(name -> DynamicContender.named(name, 0));
    if (dynamicTables.stream().anyMatch(tables -> tables < 1)
        || dynamicRows <= 0
        || dynamicKeys <= 0
        || dynamicKeys > Integer.MAX_VALUE
        || dynamicRepeats <= 0
        || dynamicCheckpointMs <= 0
        || dynamicCommitIntervalMs < 0) {
      throw new IllegalArgumentException(
          "--dynamic-tables, --dynamic-rows, --dynamic-keys (at most 2^31 - 1),"
              + " --dynamic-repeats and --dynamic-checkpoint-ms must be positive,"
              + " --dynamic-commit-interval-ms not negative");
    }
    for (String section : sections) {
      if (!SECTIONS.contains(section)) {
        throw new IllegalArgumentException(
            "Unknown section '" + section + "'; known: " + String.join(", ", SECTIONS));
      }
    }
    Set<String> run = new java.util.HashSet<>(sections);
    if (soakMinutes > 0) {
      run.add("soak");
    } else if (run.contains("soak")) {
      soakMinutes = 60;
    }
    return new BenchmarkOptions(
        rows,
        repeats,
        contenders,
        scenarios,
        Set.copyOf(run),
        soakMinutes,
        soakFlavour,
        soakCheckpointMs,
        catchUpRows,
        changes,
        keys,
        indexRows,
        readLimitSeconds,
        upsertContenders,
        upsertStateBackends,
        compactionCommits,
        compactionRows,
        compactionScenario,
        compactionTriggerCommits,
        compactionCheckpointMs,
        readRows,
        readLatencyVersions,
        slowStorageFiles,
        slowStorageDelayMs,
        dynamicTables,
        dynamicRows,
        dynamicKeys,
        dynamicModes,
        dynamicContenders,
        dynamicRepeats,
        dynamicCheckpointMs,
        dynamicCommitIntervalMs,
        dynamicHeap,
        out,
        full,
        objectReuse,
        orderSeed);
  }
}
