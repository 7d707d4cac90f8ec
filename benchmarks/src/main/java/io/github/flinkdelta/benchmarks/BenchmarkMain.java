/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.flinkdelta.benchmarks.jmh.ParquetWriterBenchmark;
import io.github.flinkdelta.benchmarks.jmh.TableVersionBenchmark;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * The benchmark's one command. Sections, each in JVMs of their own:
 *
 * <ul>
 *   <li>{@code comparison}: every contender on every scenario with the same rows, parallelism,
 *       checkpoint interval and Parquet settings; a table, {@code benchmark-results.json} and PNG
 *       charts;
 *   <li>{@code jmh}: row → Parquet, the sink's writer against Kernel's {@code
 *       DefaultParquetHandler}; and what one table version costs the committer ({@link
 *       TableVersionBenchmark});
 *   <li>{@code state}: bytes per data file in the sink's checkpointed state;
 *   <li>{@code partitions}: 100,000 partitions in one checkpoint on one subtask with a 512 MB heap,
 *       under a budget too small to hold a file's worth of rows for each (96 MB) and one that holds
 *       them (160 MB);
 *   <li>{@code large}: a table of 1,000,000 files and partitions, and one of 10,000 versions: load,
 *       commit, first commit of a job, cancellation while starting;
 *   <li>{@code soak}: a one-table run of {@code --soak-minutes N} (default 60) at 10,000 rows/s,
 *       only when named in {@code --sections} or given {@code --soak-minutes}; {@code
 *       --soak-flavour upsert} streams the upsert changelog into a table with a primary key, {@code
 *       --soak-flavour upsert-foreign} does so while real Spark runs {@code OPTIMIZE} every minute
 *       and a {@code DELETE} of 1 % of the keys every five minutes ({@link
 *       ForeignStatementsSoakRun}; checkpoints every {@code --soak-checkpoint-ms N}, default 1000);
 *   <li>{@code catch-up} (only when named): an upsert job's index catching up on real Spark's
 *       {@code OPTIMIZE} of a table of {@code --catch-up-rows N} (default 10,000,000) rows, against
 *       a job without state rescanning the table ({@link CatchUpRun});
 *   <li>{@code upsert} (only when named): a changelog of {@code --changes N} (default 10,000,000)
 *       over {@code --keys N} (default 1,000,000) keys into this sink with a primary key, Iceberg's
 *       sink in upsert mode and Paimon's on a primary-key table ({@code --upsert-contenders a,b}),
 *       this sink once per state backend of {@code --upsert-state-backends} (default {@code
 *       hashmap,rocksdb,rocksdb-incremental}); each table read back; then the key index a fresh
 *       upsert job builds on a table of {@code --index-rows N} (default 10,000,000) rows. A read
 *       that takes longer than {@code --read-limit-seconds N} (default 600) is reported as not
 *       finished. {@code benchmark-upserts.json}.
 *   <li>{@code compaction} (only when named): an hour of one checkpoint a second compressed into
 *       {@code --compaction-commits N} (default 3,600) commits of {@code --compaction-rows N}
 *       (default 10,000) rows, a checkpoint every {@code --compaction-checkpoint-ms N} (default
 *       100), at parallelism 2, into a {@code --compaction-scenario} (default {@code
 *       unpartitioned}) table: the stream without compaction, the same stream with in-job
 *       compaction every {@code --compaction-trigger-commits N} (default 60) commits, and the same
 *       rows written once in large files; each table read back. {@code benchmark-compaction.json}.
 *   <li>{@code read} (only when named): bounded reads at parallelism 2 of the same {@code
 *       --read-rows N} (default 10,000,000) rows on each of {@code --scenarios}, each reader {@code
 *       --repeats} times in a JVM of its own into a sink that counts them: this project's {@code
 *       DeltaSource} on a table this sink wrote without column mapping, Iceberg's {@code
 *       IcebergSource} on an Iceberg table of the same rows, and Flink's Parquet {@code FileSource}
 *       on the Delta table's data files; rows/s (the median reported), CPU per row and the ratios
 *       of this source's rows/s to the others'. Then a continuous {@code DeltaSource} polling every
 *       second while {@code --read-latency-versions N} (default 60; 0 leaves it out) versions of
 *       1,000 rows are committed, one every 500 ms on average: p50 and p99 from each commit to its
 *       first and last row read. Then, {@code --repeats} times, a continuous read of {@code
 *       --slow-storage-files N} (default 40; 0 leaves it out) files on s3proxy while every S3
 *       request waits {@code --slow-storage-delay-ms N} (default 200): its checkpoints' duration
 *       and the sink's alignment ({@link SlowStorageReadRun}). {@code benchmark-reads.json}.
 *   <li>{@code dynamic} (only when named): one stream into many new tables, this project's dynamic
 *       sink against Iceberg's {@code DynamicIcebergSink}, each run in a JVM of its own ({@link
 *       DynamicRun}): {@code --dynamic-rows N} (default 10,000,000) rows spread over {@code
 *       --dynamic-tables a,b} (default {@code 10,100,1000}) tables, appended and, with {@code
 *       event_id} as primary key, as changes over {@code --dynamic-keys N} (default 1,000,000) keys
 *       ({@code --dynamic-modes append,upsert}); {@code --dynamic-contenders a,b} (default {@code
 *       delta-dynamic,iceberg-dynamic}; {@code delta-dynamic-catalog} writes Unity Catalog managed
 *       tables in the embedded catalog), {@code --dynamic-repeats N} (default 1), {@code
 *       --dynamic-checkpoint-ms N} (default 1,000), {@code --dynamic-commit-interval-ms N} (this
 *       sink's {@code sink.dynamic.commit-interval}, default 0), {@code --dynamic-heap H} (each
 *       run's JVM heap, default 2g). Rows/s, heap after GC, commit latency from each checkpoint to
 *       its commit being visible in every table, time to create the tables; every table read back
 *       (limited by {@code --read-limit-seconds}). {@code benchmark-dynamic.json}.
 * </ul>
 *
 * <p>Options: {@code --full} (larger runs), {@code --rows N}, {@code --repeats N} (comparison runs
 * per contender, the median reported; default 3), {@code --contenders a,b}, {@code --scenarios
 * a,b}, {@code --sections a,b}, {@code --soak-minutes N}, {@code --object-reuse} (the comparison
 * with Flink's object reuse on, for every contender), {@code --out DIR} (default {@code target}),
 * {@code --order-seed N} (the contenders' and readers' order in each repetition is shuffled with
 * it; printed). Everything but the comparison's table and the upserts' ({@code
 * benchmark-upserts.json}) goes to {@code benchmark-measurements.json}.
 */
public final class BenchmarkMain {

  private BenchmarkMain() {}

  public static void main(String[] args) throws Exception {
    BenchmarkOptions options = BenchmarkOptions.parse(args);
    Path out = Files.createDirectories(options.out());
    Path work = Files.createTempDirectory("flink-delta-benchmark");
    System.out.println(Machine.describe());
    System.out.println("Work directory: " + work);
    List<Map<String, Object>> measurements = new ArrayList<>();

    if (options.runs("comparison")) {
      comparison(options, work, out);
    }
    if (options.runs("jmh")) {
      jmh(options, out);
    }
    if (options.runs("state")) {
      measurements.add(ChildRuns.report(CommitterStateSize.measure(work)));
    }
    if (options.runs("partitions")) {
      measurements.add(
          ChildRuns.report(
              ChildRuns.measure(ManyPartitionsRun.class, "512m", work, "100000", "4", "96mb")));
      measurements.add(
          ChildRuns.report(
              ChildRuns.measure(ManyPartitionsRun.class, "512m", work, "100000", "4", "160mb")));
      measurements.add(
          ChildRuns.report(
              ChildRuns.measure(ManyPartitionsRun.class, "512m", work, "2000", "50", "96mb")));
    }
    if (options.runs("large")) {
      measurements.add(
          ChildRuns.report(ChildRuns.measure(LargeTableRun.class, "4g", work, "files", "1000000")));
      measurements.add(
          ChildRuns.report(
              ChildRuns.measure(LargeTableRun.class, "2g", work, "versions", "10000")));
    }
    if (options.runs("soak")) {
      String seconds = Integer.toString(options.soakMinutes() * 60);
      Duration timeout = ChildJvm.TIMEOUT.plusMinutes(options.soakMinutes());
      if (options.soakFlavour().equals("upsert-foreign")) {
        String[] soakArgs = {seconds, "10000", Long.toString(options.soakCheckpointMs())};
        Figures soak =
            ChildRuns.measure(ForeignStatementsSoakRun.class, "1g", timeout, work, soakArgs);
        UpsertReport.followTimes(
            ChildRuns.logOf(ForeignStatementsSoakRun.class, work, soakArgs), soak);
        measurements.add(ChildRuns.report(soak));
      } else {
        measurements.add(
            ChildRuns.report(
                ChildRuns.measure(
                    SoakRun.class, "1g", timeout, work, seconds, "10000", options.soakFlavour())));
      }
    }
    if (options.runs("catch-up")) {
      String[] catchUpArgs = {Long.toString(options.catchUpRows())};
      Figures catchUp = ChildRuns.measure(CatchUpRun.class, "4g", work, catchUpArgs);
      UpsertReport.followTimes(ChildRuns.logOf(CatchUpRun.class, work, catchUpArgs), catchUp);
      UpsertReport.indexReadTimes(ChildRuns.logOf(CatchUpRun.class, work, catchUpArgs), catchUp);
      measurements.add(ChildRuns.report(catchUp));
    }
    if (options.runs("upsert")) {
      upserts(options, work, out);
    }
    if (options.runs("compaction")) {
      compaction(options, work, out);
    }
    if (options.runs("read")) {
      ReadSection.run(options, work, out);
    }
    if (options.runs("dynamic")) {
      DynamicSection.run(options, work, out);
    }
    if (!measurements.isEmpty()) {
      new ObjectMapper()
          .writerWithDefaultPrettyPrinter()
          .writeValue(out.resolve("benchmark-measurements.json").toFile(), measurements);
    }
    WorkDirectory.pruneToLogs(work);
    System.out.println("Results in " + out.toAbsolutePath() + "; logs of each run in " + work);
  }

  private static void comparison(BenchmarkOptions options, Path work, Path out) throws Exception {
    RunSettings settings =
        RunSettings.defaults(options.rows()).withObjectReuse(options.objectReuse());
    System.out.println("Comparison: " + settings);
    // Repetitions are interleaved, so that a slow spell of the machine hits every contender.
    Map<String, List<RunResult>> runs = new java.util.LinkedHashMap<>();
    for (String scenario : options.scenarios()) {
      for (String contender : options.contenders()) {
        runs.put(scenario + "-" + contender, new ArrayList<>());
      }
    }
    // Contenders run in a new order each repetition, so that none always runs first (on a cold
    // machine) or last (after the others heated it); the seed replays an order.
    java.util.Random order = new java.util.Random(options.orderSeed());
    System.out.printf("Contender order seed: %d (--order-seed to replay)%n", options.orderSeed());
    for (int repeat = 1; repeat <= options.repeats(); repeat++) {
      List<String> contenders = new ArrayList<>(options.contenders());
      java.util.Collections.shuffle(contenders, order);
      System.out.printf("Repetition %d order: %s%n", repeat, String.join(", ", contenders));
      for (String scenario : options.scenarios()) {
        for (String contender : contenders) {
          String name = scenario + "-" + contender;
          Path dir = Files.createDirectories(work.resolve(name + "-" + repeat));
          Path resultFile = dir.resolve("result.json");
          List<String> childArgs = new ArrayList<>();
          childArgs.addAll(List.of(contender, scenario, dir.toString(), resultFile.toString()));
          childArgs.addAll(
              (contender.equals(DiscardingContender.NAME)
                      ? settings.withRows(settings.rows() * DiscardingContender.ROWS_FACTOR)
                      : settings)
                  .toArgs());
          System.out.printf(
              "%s on %s (%d/%d) ...%n", contender, scenario, repeat, options.repeats());
          ChildJvm.run(
              ContenderRun.class,
              settings.childHeap(),
              childArgs,
              dir.resolve("run.log"),
              ChildJvm.TIMEOUT);
          RunResult result = new ObjectMapper().readValue(resultFile.toFile(), RunResult.class);
          runs.get(name).add(result);
          System.out.printf(
              "  %,.0f rows/s (%,.0f after warm-up), commit p50 %.0f ms, p99 %.0f ms%n",
              result.rowsPerSecond(),
              result.rowsPerSecondAfterWarmUp(),
              result.commitLatencyP50Ms(),
              result.commitLatencyP99Ms());
        }
      }
    }
    // Each contender is reported by its median repetition: the fastest of several would favour
    // whichever contender varies most from run to run on a noisy machine.
    List<RunResult> results = new ArrayList<>();
    for (List<RunResult> repetitions : runs.values()) {
      results.add(RunResult.median(repetitions));
    }
    ComparisonReport report = new ComparisonReport(results);
    System.out.println();
    report.print(System.out);
    System.out.println();
    report.printCpuSplit(System.out);
    System.out.println();
    report.writeJson(out.resolve("benchmark-results.json"));
    report.writeCharts(out);
  }

  /**
   * The upsert section: each contender on the same changelog in a JVM of its own, then the index
   * build; the figures are printed as a table and written to {@code benchmark-upserts.json}.
   */
  private static void upserts(BenchmarkOptions options, Path work, Path out) throws Exception {
    System.out.printf(
        "Upserts: %,d changes over %,d keys, parallelism %d, a checkpoint every %d ms%n",
        options.changes(), options.keys(), UpsertRun.PARALLELISM, UpsertRun.CHECKPOINT_INTERVAL_MS);
    List<Figures> runs = new ArrayList<>();
    for (String contender : options.upsertContenders()) {
      List<String> backends =
          contender.equals(DeltaUpsertContender.NAME)
              ? options.upsertStateBackends()
              : List.of("hashmap");
      for (String backend : backends) {
        Figures run =
            ChildRuns.measure(
                UpsertRun.class,
                "2g",
                work,
                contender,
                Long.toString(options.changes()),
                Long.toString(options.keys()),
                backend,
                Long.toString(options.readLimitSeconds()));
        runs.add(run);
        System.out.print(run);
        System.out.println();
      }
    }
    Figures index = null;
    if (options.indexRows() > 0) {
      String[] args = {Long.toString(options.indexRows()), "10000"};
      index = ChildRuns.measure(IndexBuildRun.class, "4g", work, args);
      UpsertReport.indexReadTimes(ChildRuns.logOf(IndexBuildRun.class, work, args), index);
      System.out.print(index);
      System.out.println();
    }
    UpsertReport report = new UpsertReport(runs, index);
    report.print(System.out);
    report.writeJson(out.resolve("benchmark-upserts.json"));
  }

  /**
   * The compaction section: the three runs of {@link CompactionRun} on the same rows, each in a JVM
   * of its own; the figures are printed as a table and written to {@code
   * benchmark-compaction.json}.
   */
  private static void compaction(BenchmarkOptions options, Path work, Path out) throws Exception {
    System.out.printf(
        "Compaction: %,d commits of %,d rows, a checkpoint every %d ms, parallelism %d, %s;"
            + " compaction every %d commits%n",
        options.compactionCommits(),
        options.compactionRows(),
        options.compactionCheckpointMs(),
        CompactionRun.PARALLELISM,
        options.compactionScenario(),
        options.compactionTriggerCommits());
    // A stream of N commits lasts at least N checkpoint intervals.
    Duration timeout =
        ChildJvm.TIMEOUT.plusMillis(
            3 * options.compactionCommits() * options.compactionCheckpointMs());
    List<Figures> runs = new ArrayList<>();
    for (String kind : CompactionRun.KINDS) {
      String[] args = {
        kind,
        options.compactionScenario(),
        Long.toString(options.compactionCommits()),
        Integer.toString(options.compactionRows()),
        Integer.toString(options.compactionTriggerCommits()),
        Long.toString(options.compactionCheckpointMs())
      };
      Figures run = ChildRuns.measure(CompactionRun.class, "2g", timeout, work, args);
      CompactionReport.compactionLog(ChildRuns.logOf(CompactionRun.class, work, args), run);
      runs.add(run);
      System.out.print(run);
      System.out.println();
    }
    CompactionReport report = new CompactionReport(runs);
    report.print(System.out);
    report.writeJson(out.resolve("benchmark-compaction.json"));
  }

  private static void jmh(BenchmarkOptions options, Path out) throws Exception {
    System.out.println(
        "JMH: "
            + ParquetWriterBenchmark.class.getSimpleName()
            + ", "
            + TableVersionBenchmark.class.getSimpleName());
    OptionsBuilder jmh = new OptionsBuilder();
    jmh.include(ParquetWriterBenchmark.class.getName())
        .include(TableVersionBenchmark.class.getName())
        .jvmArgsPrepend(ChildJvm.openings().toArray(String[]::new))
        .resultFormat(ResultFormatType.JSON)
        .result(out.resolve("jmh-results.json").toString());
    if (!options.full()) {
      jmh.warmupIterations(2)
          .warmupTime(TimeValue.seconds(2))
          .measurementIterations(3)
          .measurementTime(TimeValue.seconds(2));
    }
    java.util.Collection<org.openjdk.jmh.results.RunResult> results = new Runner(jmh.build()).run();
    System.out.println();
    // Figures with their error (99.9 % confidence interval), and a ratio only where the intervals
    // do not overlap: the short default run is noisy, and a ratio of overlapping figures says
    // nothing.
    List<org.openjdk.jmh.results.Result<?>> scores = new ArrayList<>();
    for (org.openjdk.jmh.results.RunResult result : results) {
      org.openjdk.jmh.results.Result<?> score = result.getPrimaryResult();
      scores.add(score);
      System.out.printf(
          java.util.Locale.ROOT,
          "  %-40s %,.0f ± %,.0f %s%n",
          result.getParams().getBenchmark().replaceAll(".*\\.", ""),
          score.getScore(),
          score.getScoreError(),
          score.getScoreUnit());
    }
    for (int i = 0; i < scores.size(); i++) {
      for (int j = i + 1; j < scores.size(); j++) {
        org.openjdk.jmh.results.Result<?> a = scores.get(i);
        org.openjdk.jmh.results.Result<?> b = scores.get(j);
        if (!a.getScoreUnit().equals(b.getScoreUnit())) {
          // Different measures (rows per second, microseconds per version): no ratio.
          continue;
        }
        boolean overlap =
            a.getScore() - a.getScoreError() <= b.getScore() + b.getScoreError()
                && b.getScore() - b.getScoreError() <= a.getScore() + a.getScoreError();
        System.out.printf(
            java.util.Locale.ROOT,
            "  %s / %s: %s%n",
            a.getLabel(),
            b.getLabel(),
            overlap
                ? "error bars overlap, no ratio"
                : String.format(java.util.Locale.ROOT, "%.2fx", a.getScore() / b.getScore()));
      }
    }
    System.out.println();
  }
}
