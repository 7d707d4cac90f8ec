/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.delta.kernel.types.LongType;
import io.github.flinkdelta.it.chaos.ChaosSchedule.Fault;
import io.github.flinkdelta.it.support.CatalogReads;
import io.github.flinkdelta.it.support.FaultCounter;
import io.github.flinkdelta.it.support.FlinkCluster;
import io.github.flinkdelta.it.support.ForeignStatements;
import io.github.flinkdelta.it.support.PhaseGate;
import io.github.flinkdelta.it.support.S3FaultInterceptor;
import io.github.flinkdelta.it.support.TestRows;
import io.github.flinkdelta.it.support.UpsertAssert;
import io.github.flinkdelta.kafkatestkit.KafkaBroker;
import io.github.flinkdelta.s3testkit.CredentialEnforcingProxy;
import io.github.flinkdelta.sink.DeltaSink;
import io.github.flinkdelta.sink.DeltaSinkOptions;
import io.github.flinkdelta.testkit.UnityCatalogServer;
import io.github.flinkdelta.uc.Secret;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.testutils.junit.SharedObjectsExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The chaos suite: jobs stream known keyed rows into a Unity Catalog managed table on S3 (s3proxy
 * behind a proxy that refuses a vended key after its expiry, a new key vended on every request,
 * each living 4 s) through many checkpoints, while a seeded injector fires faults at random
 * moments: the writer fails mid-file; S3 requests are reset or answered 503 SlowDown (hitting file
 * uploads in the writer and in {@code prepareCommit}, the staged commit the committer writes before
 * its catalog call, the publish copy and Delta checkpoint writes); catalog commit and publish calls
 * fail with 429/500/503 or are applied with their response lost; credential requests fail; a whole
 * TaskManager is lost. Each run then checks the table holds exactly the rows sent, each once, that
 * every version from 0 to the catalog's latest exists, and that S3 refused no request as expired
 * (the connector renewed every key in time).
 *
 * <p>Each fault is counted where it is injected: armed by the schedule, and fired when it hit the
 * job (a writer failure thrown, an S3 burst that faulted a request, a catalog fault that answered a
 * call, a TaskManager terminated); one replaced or cleared before it hit anything only counts as
 * armed. Each run prints its seed, rows, versions and per kind faults fired/armed; the total, the
 * fired counts over all runs.
 *
 * <p>CI runs the fixed seeds {@link #CI_SEEDS}, whose schedules are certain to fire every kind, and
 * fails if a kind never fired in them; {@code -Dchaos.runs=N} adds random seeds after them. A soak:
 * {@code ./mvnw -B -pl integration-tests test-compile surefire:test@default-test -Dtest=ChaosITCase
 * -Dchaos.minutes=30}. A failing run prints its seed; {@code -Dchaos.seed=<seed> -Dchaos.runs=1}
 * replays its fault schedule. Delta checkpoints are written every three versions, so S3 faults also
 * hit checkpoint writes.
 *
 * <p>One more run, on a seed of its own, changes the stream's shape mid-stream ({@link
 * ChaosEvolutionRun}): a redeploy from a savepoint with a wider type and an added column, and
 * another writer adding a column while the job runs, each half of its faults on either side of the
 * redeploy. {@code -Dchaos.seed} replays it too.
 *
 * <p>And one run writes an upsert table ({@link ChaosUpsertRun}): a changelog drawn from the seed
 * over a fixed key space, under every kind of fault and foreign statements another writer runs
 * through the catalog ({@link ChaosForeignWriter}); the table must equal the changelog's replay
 * with the statements (one row per live key, each with its last value). CI runs it on {@link
 * #UPSERT_SEED}, certain to fire every kind; {@code -Dchaos.seed} replays another.
 *
 * <p>And one run takes a database's Debezium change events from a real Kafka broker into one
 * managed table per source table through the dynamic sink ({@link ChaosDynamicRun}), on the upsert
 * run's seed, with a failure right after the source adds a column and one right after a table
 * appears.
 */
class ChaosITCase {

  @RegisterExtension
  static final FlinkCluster FLINK =
      FlinkCluster.of(
          new MiniClusterResourceConfiguration.Builder()
              .setNumberTaskManagers(2)
              .setNumberSlotsPerTaskManager(2)
              // MiniCluster keeps every TaskManager it ever started, with its network buffers
              // (direct memory); small ones let a soak kill many.
              .setConfiguration(
                  new org.apache.flink.configuration.Configuration()
                      .set(
                          org.apache.flink.configuration.TaskManagerOptions.NETWORK_MEMORY_MIN,
                          org.apache.flink.configuration.MemorySize.parse("16m"))
                      .set(
                          org.apache.flink.configuration.TaskManagerOptions.NETWORK_MEMORY_MAX,
                          org.apache.flink.configuration.MemorySize.parse("16m")))
              .build());

  private static final String TOKEN = "chaos-token";
  private static final int BUCKETS = 4;

  /**
   * The seeds CI runs (random ones follow with {@code -Dchaos.runs} or a soak): each plan is
   * certain to fire every kind of fault ({@link ChaosSchedule#certain()}, found by {@link
   * ChaosSchedule#main}), so that every kind fires in CI twice over, whatever the machine's speed.
   */
  static final long[] CI_SEEDS = {116, 334};

  /** The upsert run's seed in CI: a short plan ({@link ChaosSchedule#certain()} of every kind). */
  static final long UPSERT_SEED = 9294;

  @RegisterExtension final SharedObjectsExtension shared = SharedObjectsExtension.create();

  /** The cluster's running TaskManagers; it starts with two. */
  private static final ChaosInjector.TaskManagers TASK_MANAGERS = new ChaosInjector.TaskManagers(2);

  @TempDir static Path s3Directory;
  private static ChaosStorage storage;

  @BeforeAll
  static void startS3() {
    storage = ChaosStorage.start(s3Directory);
  }

  @AfterAll
  static void stopS3() {
    storage.close();
  }

  @Test
  void ciSeedsArePlannedToFireEveryKind() {
    Set<Fault> planned = EnumSet.noneOf(Fault.class);
    for (long seed : CI_SEEDS) {
      planned.addAll(ChaosSchedule.of(seed).certain());
    }
    assertThat(planned)
        .as("kinds CI's fixed seeds are certain to fire")
        .hasSameElementsAs(EnumSet.allOf(Fault.class));
  }

  @Test
  void everyRunHoldsExactlyTheRowsSentUnderRandomFaults(@InjectMiniCluster MiniCluster cluster)
      throws Exception {
    Long replay = Long.getLong("chaos.seed");
    long randomSeed = replay != null ? replay : new Random().nextLong();
    long[] fixedSeeds = replay != null ? new long[0] : CI_SEEDS;
    int minimumRuns = Integer.getInteger("chaos.runs", CI_SEEDS.length);
    long soakEnd =
        System.nanoTime()
            + (long) (Double.parseDouble(System.getProperty("chaos.minutes", "0")) * 60e9);
    ChaosTally total = new ChaosTally();
    ChaosTally fixed = new ChaosTally();
    long rows = 0;
    long compactions = 0;
    int runs = 0;
    System.out.printf(
        "Chaos: fixed seeds %s, then seeds from %d%n", Arrays.toString(fixedSeeds), randomSeed);
    while (runs < minimumRuns || System.nanoTime() < soakEnd) {
      long seed =
          runs < fixedSeeds.length ? fixedSeeds[runs] : randomSeed + runs - fixedSeeds.length;
      Result result = run(cluster, runs, seed);
      total.add(result.faults());
      if (runs < fixedSeeds.length) {
        fixed.add(result.faults());
      }
      rows += result.rows();
      compactions += result.compactions();
      runs++;
      System.gc();
      System.out.printf(
          "Chaos run %d (seed %d): %d rows, %d versions (%d compactions), faults %s, S3 requests"
              + " faulted %d, duplicates %d, losses %d; S3 keys used %d, requests refused as"
              + " expired %d; heap %d MB, direct %d MB%n",
          runs,
          seed,
          result.rows(),
          result.versions(),
          result.compactions(),
          result.faults(),
          result.s3RequestsFaulted(),
          result.duplicates(),
          result.losses(),
          result.keysUsed(),
          result.refusedExpired(),
          (Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory()) >> 20,
          directMemoryUsed() >> 20);
      assertThat(result.duplicates() + result.losses())
          .as("run with seed %d (replay: -Dchaos.seed=%d -Dchaos.runs=1)", seed, seed)
          .isZero();
      assertThat(result.missingVersions()).as("versions missing, seed %d", seed).isEmpty();
      assertThat(result.refusedExpired())
          .as("S3 requests refused as expired, seed %d", seed)
          .isZero();
    }
    System.out.printf(
        "Chaos total: %d runs, %d faults fired, %s, %d rows, 0 duplicates, 0 losses%n",
        runs, total.totalFired(), total, rows);
    assertThat(total.totalFired()).as("faults fired").isPositive();
    assertThat(compactions).as("compactions committed under faults").isPositive();
    if (fixedSeeds.length > 0 && runs >= fixedSeeds.length) {
      assertThat(fixed.neverFired())
          .as("kinds that never fired in the runs of seeds %s", Arrays.toString(fixedSeeds))
          .isEmpty();
    }
  }

  /**
   * A chaos run whose stream changes shape mid-stream ({@link ChaosEvolutionRun}): version-1 rows
   * under faults, a savepoint, a redeploy with version-2 rows (a type widened, a column added, the
   * columns in another order) under more faults, and another writer adding a column while it runs.
   * The table must then hold every id once: version 1's rows with their values, qty widened, null
   * in the added columns; version 2's with theirs, null in the other writer's column. The redeploy
   * must have restored the savepoint, and the job must have committed after the other writer.
   */
  @Test
  void aRedeployWithWiderRowsAndAnotherWritersColumnHoldsEveryRowOnceWithItsValues(
      @InjectMiniCluster MiniCluster cluster, @TempDir Path savepoints) throws Exception {
    long seed = Long.getLong("chaos.seed", new Random().nextLong());
    System.out.printf("Chaos evolution run: seed %d%n", seed);
    ChaosEvolutionRun.Result result =
        new ChaosEvolutionRun(FLINK, cluster, TASK_MANAGERS, shared, storage).run(seed, savepoints);
    ChaosEvolvingRows.Census census = result.census();
    System.out.printf(
        "Chaos evolution run (seed %d): %d rows, %d as version 1 (%d committed before the"
            + " savepoint), %d as version 2, %d wrong, %d duplicates, %d losses; %d versions;"
            + " savepoint %d restored by %d of %d subtask starts of the redeploy; the other"
            + " writer's column at version %d (attempt %d), %d rows committed after it; faults %s,"
            + " S3 requests faulted %d, S3 requests refused as expired %d%n",
        seed,
        result.rows(),
        census.version1(),
        result.phase1Rows().size(),
        census.version2(),
        census.wrong(),
        census.duplicates(),
        census.losses(),
        result.read().version() + 1,
        result.savepointId(),
        result.restoredSavepoint(),
        result.restored().size(),
        result.change().version(),
        result.change().attempts(),
        result.read().rows().size() - result.rowsAtChange(),
        result.faults(),
        result.s3RequestsFaulted(),
        result.refusedExpired());
    String replay = "seed " + seed + " (replay: -Dchaos.seed=" + seed + ")";
    assertThat(result.phase1Rows())
        .as("phase 1's rows, each once with its values, %s", replay)
        .isNotEmpty()
        .doesNotHaveDuplicates()
        .allSatisfy(
            row ->
                assertThat(row)
                    .isEqualTo(
                        ChaosEvolvingRows.v1BeforeRedeploy(
                            (Long) row.get(0), ChaosEvolutionRun.BUCKETS)));
    assertThat(census.wrong() + census.duplicates() + census.losses())
        .as("rows wrong (e.g. %s), duplicated or lost, %s", census.examples(), replay)
        .isZero();
    assertThat(census.version1())
        .as("rows as version 1 wrote them, %s", replay)
        .isGreaterThanOrEqualTo(result.phase1Rows().size());
    assertThat(census.version2()).as("rows as version 2 wrote them, %s", replay).isPositive();
    assertThat(result.restoredSavepoint())
        .as("subtask starts of the redeploy that restored the savepoint, %s", replay)
        .isGreaterThanOrEqualTo(2);
    assertThat(result.restored())
        .as("subtask starts of the redeploy that restored nothing, %s", replay)
        .doesNotContain(PhaseGate.FRESH);
    assertThat(result.change().version()).isGreaterThan(result.evolvedAt());
    assertThat(result.read().rows().size())
        .as("rows committed after the other writer's change, %s", replay)
        .isGreaterThan(result.rowsAtChange());
    assertThat(result.schema().fieldNames())
        .containsExactly("id", "bucket", "payload", "qty", "tag", "audit");
    assertThat(result.schema().get("qty").getDataType()).isEqualTo(LongType.LONG);
    assertThat(result.faults().totalFired()).as("faults fired, %s", replay).isPositive();
    assertThat(result.missingVersions()).as("versions missing, %s", replay).isEmpty();
    assertThat(result.refusedExpired()).as("S3 requests refused as expired").isZero();
  }

  @Test
  void anUpsertTableUnderRandomFaultsHoldsTheLastValueOfEveryKey(
      @InjectMiniCluster MiniCluster cluster) throws Exception {
    Long replay = Long.getLong("chaos.seed");
    long seed = replay != null ? replay : UPSERT_SEED;
    ChaosUpsertRun.Result result =
        new ChaosUpsertRun(FLINK, cluster, TASK_MANAGERS, shared, storage).run(seed);
    Map<Object, Long> repeated = UpsertAssert.repeatedKeys(result.read().rows());
    System.out.printf(
        "Chaos upsert run (seed %d): %d changes over %d keys, %d live keys expected, %d rows read"
            + " (%d keys held more than once), %d versions (%d with a writer's compaction), %d"
            + " deletion-vector files; foreign statements %s; faults %s, S3 requests faulted %d,"
            + " S3 requests refused as expired %d%n",
        seed,
        result.changes(),
        ChaosUpsertRun.KEYS,
        result.expected().size(),
        result.read().rows().size(),
        repeated.size(),
        result.read().version() + 1,
        result.compactions(),
        result.deletionVectors(),
        result.statements(),
        result.faults(),
        result.s3RequestsFaulted(),
        result.refusedExpired());
    String what = "the upsert table, seed " + seed + " (replay: -Dchaos.seed=" + seed + ")";
    UpsertAssert.assertRows(result.read().rows(), result.expected(), what);
    assertThat(result.deletionVectors()).as("deletion-vector files of %s", what).isPositive();
    assertThat(result.compactions())
        .as("versions with a writer's compaction, %s", what)
        .isPositive();
    assertThat(result.missingVersions()).as("versions missing, %s", what).isEmpty();
    assertThat(result.refusedExpired()).as("S3 requests refused as expired, %s", what).isZero();
    assertThat(result.faults().totalFired()).as("faults fired, %s", what).isPositive();
    assertThat(result.statements())
        .as("foreign statements committed, %s", what)
        .extracting(ChaosForeignWriter.Ran::statement)
        .containsExactlyInAnyOrder(
            ForeignStatements.DELETE, ForeignStatements.UPDATE, ForeignStatements.OPTIMIZE);
    if (replay == null) {
      assertThat(ChaosSchedule.of(seed).certain()).hasSameElementsAs(EnumSet.allOf(Fault.class));
      assertThat(result.faults().neverFired()).as("kinds that never fired, %s", what).isEmpty();
    }
  }

  @Test
  void aDatabasesChangeEventsFromKafkaUnderRandomFaultsLandExactlyInTheirTables(
      @InjectMiniCluster MiniCluster cluster) throws Exception {
    Long replay = Long.getLong("chaos.seed");
    long seed = replay != null ? replay : UPSERT_SEED;
    ChaosDynamicRun.Result result;
    try (KafkaBroker kafka = KafkaBroker.start(s3Directory.resolve("kafka"))) {
      result = new ChaosDynamicRun(FLINK, cluster, TASK_MANAGERS, shared, storage, kafka).run(seed);
    }
    System.out.printf(
        "Chaos dynamic run (seed %d): %d events; rows read %s; faults %s, failures after a new"
            + " shape %d, S3 requests faulted %d, S3 requests refused as expired %d%n",
        seed,
        result.events(),
        result.reads().entrySet().stream()
            .map(e -> e.getKey() + "=" + e.getValue().rows().size())
            .toList(),
        result.faults(),
        result.shapeFailures(),
        result.s3RequestsFaulted(),
        result.refusedExpired());
    String what = "seed " + seed + " (replay: -Dchaos.seed=" + seed + ")";
    assertThat(result.expected()).containsOnlyKeys("shop.orders", "shop.customers", "shop.returns");
    result
        .expected()
        .forEach(
            (table, rows) -> {
              UpsertAssert.assertRows(result.reads().get(table).rows(), rows, table + ", " + what);
              assertThat(result.missingVersions().get(table))
                  .as("versions missing in %s, %s", table, what)
                  .isEmpty();
            });
    assertThat(result.reads().get("shop.orders").schema().fieldNames())
        .containsExactly("id", "item", "qty", "note");
    assertThat(result.shapeFailures()).as("failures after a new shape, %s", what).isEqualTo(2);
    assertThat(result.refusedExpired()).as("S3 requests refused as expired, %s", what).isZero();
    assertThat(result.faults().totalFired()).as("faults fired, %s", what).isPositive();
    if (replay == null) {
      assertThat(result.faults().neverFired()).as("kinds that never fired, %s", what).isEmpty();
    }
  }

  private static long directMemoryUsed() {
    return java.lang.management.ManagementFactory.getPlatformMXBeans(
            java.lang.management.BufferPoolMXBean.class)
        .stream()
        .filter(pool -> pool.getName().equals("direct"))
        .mapToLong(java.lang.management.BufferPoolMXBean::getMemoryUsed)
        .sum();
  }

  private record Result(
      long rows,
      long versions,
      ChaosTally faults,
      int s3RequestsFaulted,
      long duplicates,
      long losses,
      List<Long> missingVersions,
      long keysUsed,
      long refusedExpired,
      long compactions) {}

  private Result run(MiniCluster cluster, int index, long seed) throws Exception {
    ChaosSchedule schedule = ChaosSchedule.of(seed);
    String prefix = "run-" + index + "-" + Long.toHexString(seed);
    String table = "main.default.chaos_" + index;
    long count = schedule.rows();
    int firstKey = storage.keysVended();
    FaultCounter writerFailures = FaultCounter.in(shared);
    try (UnityCatalogServer server = storage.catalog(prefix, TOKEN)) {
      ChaosInjector injector = new ChaosInjector(server, cluster, TASK_MANAGERS, writerFailures);
      UnityCatalogConnection connection =
          new UnityCatalogConnection(server.uri(), Secret.of(TOKEN));
      StreamExecutionEnvironment env = FLINK.job().checkpointEveryMillis(200).restarts(1_000).env();
      TestRows.source(env, count, ChaosSchedule.ROWS_PER_SECOND, BUCKETS)
          .map(new ChaosMapper<>(writerFailures))
          .returns(InternalTypeInfo.of(TestRows.TYPE))
          .sinkTo(
              DeltaSink.builder()
                  .unityCatalog(connection)
                  .tableName(table)
                  .rowType(TestRows.TYPE)
                  .partitionColumns("bucket")
                  .hadoopOptions(storage.storageOptions())
                  .option(DeltaSinkOptions.DELTA_CHECKPOINT_INTERVAL, 3)
                  // Compaction runs beside the commits under the same faults.
                  .option(DeltaSinkOptions.COMPACTION_ENABLED, true)
                  .option(DeltaSinkOptions.COMPACTION_TRIGGER_COMMITS, 2)
                  .option(DeltaSinkOptions.COMPACTION_MIN_INPUT_FILES, 2)
                  .build());
      JobClient job = env.executeAsync("chaos " + prefix);
      injector.drive(
          job, "chaos run with seed " + seed, schedule.faults(), 4, () -> false, () -> {});
      injector.clear();
      job.getJobExecutionResult().get();
      ChaosTally faults = injector.tally();
      int s3RequestsFaulted = S3FaultInterceptor.injected();

      CatalogReads.Read read = CatalogReads.read(connection, table, storage.storageOptions());
      List<CredentialEnforcingProxy.KeyStats> keys = storage.keysSince(firstKey);
      assertThat(storage.acceptedAfterExpiry()).isZero();
      Map<List<Object>, Long> copies = new HashMap<>();
      read.rows().forEach(r -> copies.merge(r, 1L, Long::sum));
      long duplicates = copies.values().stream().mapToLong(n -> n - 1).sum();
      long losses =
          TestRows.expected(count, BUCKETS).stream().filter(r -> !copies.containsKey(r)).count();
      assertThat(read.version()).isEqualTo(server.latestVersion(table));
      return new Result(
          count,
          read.version() + 1,
          faults,
          s3RequestsFaulted,
          duplicates + unexpected(copies, count),
          losses,
          storage.missingVersions(prefix, read.version()),
          keys.stream().filter(k -> k.accepted() > 0).count(),
          keys.stream().mapToLong(CredentialEnforcingProxy.KeyStats::refusedExpired).sum(),
          storage.compactions(prefix));
    } finally {
      ChaosMapper.disarm();
      S3FaultInterceptor.clear();
    }
  }

  /** Rows the table holds that were never sent. */
  private static long unexpected(Map<List<Object>, Long> copies, long count) {
    java.util.Set<List<Object>> sent = new java.util.HashSet<>(TestRows.expected(count, BUCKETS));
    return copies.keySet().stream().filter(r -> !sent.contains(r)).count();
  }
}
