package io.github.flinkdelta.benchmarks;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.flinkdelta.benchmarks.jmh.ParquetWriterBenchmark;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
 *       DefaultParquetHandler};
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
 *       first and last row read. {@code benchmark-reads.json}.
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

  /** Every reader's JVM has this heap, and so do the writes of its tables. */
  private static final String READ_HEAP = "2g";

  private BenchmarkMain() {}

  public static void main(String[] args) throws Exception {
    Options options = Options.parse(args);
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
      measurements.add(report(CommitterStateSize.measure(work)));
    }
    if (options.runs("partitions")) {
      measurements.add(
          report(measure(ManyPartitionsRun.class, "512m", work, "100000", "4", "96mb")));
      measurements.add(
          report(measure(ManyPartitionsRun.class, "512m", work, "100000", "4", "160mb")));
      measurements.add(
          report(measure(ManyPartitionsRun.class, "512m", work, "2000", "50", "96mb")));
    }
    if (options.runs("large")) {
      measurements.add(report(measure(LargeTableRun.class, "4g", work, "files", "1000000")));
      measurements.add(report(measure(LargeTableRun.class, "2g", work, "versions", "10000")));
    }
    if (options.runs("soak")) {
      String seconds = Integer.toString(options.soakMinutes() * 60);
      Duration timeout = ChildJvm.TIMEOUT.plusMinutes(options.soakMinutes());
      if (options.soakFlavour().equals("upsert-foreign")) {
        String[] soakArgs = {seconds, "10000", Long.toString(options.soakCheckpointMs())};
        Figures soak = measure(ForeignStatementsSoakRun.class, "1g", timeout, work, soakArgs);
        UpsertReport.followTimes(logOf(ForeignStatementsSoakRun.class, work, soakArgs), soak);
        measurements.add(report(soak));
      } else {
        measurements.add(
            report(
                measure(
                    SoakRun.class, "1g", timeout, work, seconds, "10000", options.soakFlavour())));
      }
    }
    if (options.runs("catch-up")) {
      String[] catchUpArgs = {Long.toString(options.catchUpRows())};
      Figures catchUp = measure(CatchUpRun.class, "4g", work, catchUpArgs);
      UpsertReport.followTimes(logOf(CatchUpRun.class, work, catchUpArgs), catchUp);
      UpsertReport.indexReadTimes(logOf(CatchUpRun.class, work, catchUpArgs), catchUp);
      measurements.add(report(catchUp));
    }
    if (options.runs("upsert")) {
      upserts(options, work, out);
    }
    if (options.runs("compaction")) {
      compaction(options, work, out);
    }
    if (options.runs("read")) {
      reads(options, work, out);
    }
    if (!measurements.isEmpty()) {
      new ObjectMapper()
          .writerWithDefaultPrettyPrinter()
          .writeValue(out.resolve("benchmark-measurements.json").toFile(), measurements);
    }
    WorkDirectory.pruneToLogs(work);
    System.out.println("Results in " + out.toAbsolutePath() + "; logs of each run in " + work);
  }

  private static void comparison(Options options, Path work, Path out) throws Exception {
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
  private static void upserts(Options options, Path work, Path out) throws Exception {
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
            measure(
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
      index = measure(IndexBuildRun.class, "4g", work, args);
      UpsertReport.indexReadTimes(logOf(IndexBuildRun.class, work, args), index);
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
  private static void compaction(Options options, Path work, Path out) throws Exception {
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
      Figures run = measure(CompactionRun.class, "2g", timeout, work, args);
      CompactionReport.compactionLog(logOf(CompactionRun.class, work, args), run);
      runs.add(run);
      System.out.print(run);
      System.out.println();
    }
    CompactionReport report = new CompactionReport(runs);
    report.print(System.out);
    report.writeJson(out.resolve("benchmark-compaction.json"));
  }

  /**
   * The read section: on each scenario the tables written once ({@link ReadTables}), then each
   * reader's bounded read ({@link ReadRun}) in a JVM of its own, repetitions interleaved and the
   * readers in a new order each time; then the continuous read's latency ({@link ReadLatencyRun}).
   * The figures are printed as a table and written to {@code benchmark-reads.json}.
   */
  private static void reads(Options options, Path work, Path out) throws Exception {
    System.out.printf(
        "Reads: %,d rows, parallelism %d, %d repetitions, object reuse %s, heap %s%n",
        options.readRows(),
        ReadRun.PARALLELISM,
        options.repeats(),
        options.objectReuse() ? "on" : "off",
        READ_HEAP);
    String rows = Long.toString(options.readRows());
    java.util.Random order = new java.util.Random(options.orderSeed());
    System.out.printf("Reader order seed: %d (--order-seed to replay)%n", options.orderSeed());
    List<Figures> tables = new ArrayList<>();
    List<Figures> runs = new ArrayList<>();
    for (String scenario : options.scenarios()) {
      Figures written = measure(ReadTables.class, READ_HEAP, work, scenario, rows);
      tables.add(written);
      System.out.print(written);
      if (written.values().containsKey("failed")) {
        continue;
      }
      for (int repeat = 1; repeat <= options.repeats(); repeat++) {
        List<String> readers = new ArrayList<>(ReadContender.NAMES);
        java.util.Collections.shuffle(readers, order);
        for (String reader : readers) {
          Figures run =
              measure(
                  ReadRun.class,
                  READ_HEAP,
                  work,
                  reader,
                  scenario,
                  rows,
                  Boolean.toString(options.objectReuse()),
                  Integer.toString(repeat));
          runs.add(run);
          if (run.values().containsKey("failed")) {
            System.out.print(run);
          } else {
            System.out.printf(
                java.util.Locale.ROOT,
                "  %,.0f rows/s, %,.0f ns CPU per row%n",
                run.values().get("rows_per_second"),
                run.values().get("cpu_ns_per_row"));
          }
        }
      }
    }
    Figures latency = null;
    if (options.readLatencyVersions() > 0) {
      latency =
          measure(
              ReadLatencyRun.class,
              READ_HEAP,
              work,
              Integer.toString(options.readLatencyVersions()),
              "1000",
              "500",
              "1000");
      System.out.print(latency);
    }
    ReadReport report = new ReadReport(tables, runs, latency);
    System.out.println();
    report.print(System.out);
    report.writeJson(out.resolve("benchmark-reads.json"));
  }

  private static void jmh(Options options, Path out) throws Exception {
    System.out.println("JMH: " + ParquetWriterBenchmark.class.getSimpleName());
    OptionsBuilder jmh = new OptionsBuilder();
    jmh.include(ParquetWriterBenchmark.class.getName())
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

  /**
   * Runs a measurement in a JVM of its own; a measurement that fails (a target missed by running
   * out of memory, say) is reported as failed, with its cause, and the others still run.
   */
  private static Figures measure(Class<?> main, String heap, Path work, String... args) {
    return measure(main, heap, ChildJvm.TIMEOUT, work, args);
  }

  private static Figures measure(
      Class<?> main, String heap, Duration timeout, Path work, String... args) {
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

  private static Map<String, Object> report(Figures figures) {
    System.out.print(figures);
    System.out.println();
    return figures.values();
  }

  record Options(
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
            "read");

    boolean runs(String section) {
      return sections.contains(section);
    }

    static Options parse(String[] args) {
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
      return new Options(
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
          out,
          full,
          objectReuse,
          orderSeed);
    }
  }
}
