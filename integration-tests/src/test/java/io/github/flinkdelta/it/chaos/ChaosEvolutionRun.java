/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.chaos;

import io.delta.kernel.types.StringType;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.github.flinkdelta.core.config.SchemaEvolution;
import io.github.flinkdelta.it.support.AnotherWriter;
import io.github.flinkdelta.it.support.CatalogReads;
import io.github.flinkdelta.it.support.FaultCounter;
import io.github.flinkdelta.it.support.FlinkCluster;
import io.github.flinkdelta.it.support.PhaseGate;
import io.github.flinkdelta.it.support.S3FaultInterceptor;
import io.github.flinkdelta.s3testkit.CredentialEnforcingProxy;
import io.github.flinkdelta.sink.DeltaSink;
import io.github.flinkdelta.sink.DeltaSinkOptions;
import io.github.flinkdelta.testkit.UnityCatalogServer;
import io.github.flinkdelta.uc.Secret;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import java.io.DataInputStream;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.checkpoint.Checkpoints;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.testutils.junit.SharedObjectsExtension;

/**
 * A chaos run whose stream changes shape, in two deployments of one job under one seed's faults.
 *
 * <ol>
 *   <li>Phase 1 streams version-1 rows ({@link ChaosEvolvingRows}) under the first half of the
 *       faults, until a commit follows the last of them (or its {@link PhaseGate} holds the
 *       generator), and stops with a savepoint.
 *   <li>Phase 2 is redeployed from that savepoint with version-2 rows (qty widened from INT to
 *       BIGINT with {@code widen}, a column tag added, the columns in another order); building its
 *       sink evolves the table. It runs under the second half of the faults. Once it has committed
 *       and its gate holds the generator, another writer adds a nullable column to the table on a
 *       quiet catalog (faults armed and not fired are cleared); then the rows flow again, so that
 *       the job commits after the change and must follow it.
 * </ol>
 */
final class ChaosEvolutionRun {

  static final String TABLE = "main.default.chaos_evolution";
  static final String OTHER_WRITERS_COLUMN = "audit";
  static final int BUCKETS = 4;

  /** Faults of a schedule each phase arms. */
  private static final int FAULTS_PER_PHASE = ChaosSchedule.MAX_FAULTS / 2;

  /**
   * Rows each phase checkpoints before its generator holds: in phase 1, 3 s of rows at least, about
   * the time its faults take to arm; in phase 2, before the other writer's change. A phase sends
   * fewer than twice as many before it holds, and the run sends 1,000 rows more than its schedule's
   * 3,000 or more, so at least 1,200 rows come after the change.
   */
  private static final long PHASE_1_ROWS = 1_200;

  private static final long PHASE_2_ROWS = 200;

  private static final String TOKEN = "chaos-token";

  private final FlinkCluster flink;
  private final MiniCluster cluster;
  private final ChaosInjector.TaskManagers taskManagers;
  private final SharedObjectsExtension shared;
  private final ChaosStorage storage;

  ChaosEvolutionRun(
      FlinkCluster flink,
      MiniCluster cluster,
      ChaosInjector.TaskManagers taskManagers,
      SharedObjectsExtension shared,
      ChaosStorage storage) {
    this.flink = flink;
    this.cluster = cluster;
    this.taskManagers = taskManagers;
    this.shared = shared;
    this.storage = storage;
  }

  /**
   * What a run left and counted.
   *
   * @param rows the ids sent, 0 to rows - 1
   * @param phase1Rows the table's rows when phase 1 had stopped
   * @param savepointId the checkpoint id of phase 1's savepoint
   * @param restored the checkpoint each subtask attempt of phase 2 restored, in start order
   * @param evolvedAt the version phase 2's sink evolved the table to at build
   * @param change the other writer's change
   * @param rowsAtChange the table's rows right after the change
   * @param read the table at the end
   * @param census the rows at the end against the rows sent
   */
  record Result(
      long rows,
      List<List<Object>> phase1Rows,
      long savepointId,
      List<Long> restored,
      long evolvedAt,
      AnotherWriter.Change change,
      int rowsAtChange,
      CatalogReads.Read read,
      ChaosEvolvingRows.Census census,
      ChaosTally faults,
      int s3RequestsFaulted,
      List<Long> missingVersions,
      long refusedExpired) {

    /** The subtask attempts of phase 2 that restored phase 1's savepoint. */
    long restoredSavepoint() {
      return restored.stream().filter(id -> id == savepointId).count();
    }

    StructType schema() {
      return read.schema();
    }
  }

  Result run(long seed, Path savepoints) throws Exception {
    ChaosSchedule schedule = ChaosSchedule.of(seed);
    long count = schedule.rows() + 1_000;
    String prefix = "evolution-" + Long.toHexString(seed);
    int firstKey = storage.keysVended();
    FaultCounter writerFailures = FaultCounter.in(shared);
    try (UnityCatalogServer server = storage.catalog(prefix, TOKEN)) {
      ChaosInjector injector = new ChaosInjector(server, cluster, taskManagers, writerFailures);
      UnityCatalogConnection connection =
          new UnityCatalogConnection(server.uri(), Secret.of(TOKEN));
      String what = "the evolution run with seed " + seed;

      PhaseGate gate1 = PhaseGate.in(shared, PHASE_1_ROWS);
      DeltaSink sink1 = sink(connection, ChaosEvolvingRows.V1, SchemaEvolution.ADD_COLUMNS);
      JobClient first = start(null, 1, count, gate1, writerFailures, sink1);
      long[] versionAtLastFault = {-1};
      injector.drive(
          first,
          "phase 1 of " + what,
          schedule.faults().subList(0, FAULTS_PER_PHASE),
          4,
          () -> {
            long version = server.latestVersion(TABLE);
            if (versionAtLastFault[0] < 0) {
              versionAtLastFault[0] = version;
            }
            return version >= 1 && (version > versionAtLastFault[0] || gate1.closed());
          },
          () -> {});
      injector.clear();
      String savepoint = stopWithSavepoint(first, savepoints);
      List<List<Object>> phase1Rows = read(connection).rows();

      PhaseGate gate2 = PhaseGate.in(shared, PHASE_2_ROWS);
      DeltaSink sink2 = sink(connection, ChaosEvolvingRows.V2, SchemaEvolution.WIDEN);
      long evolvedAt = server.latestVersion(TABLE);
      JobClient second = start(savepoint, 2, count, gate2, writerFailures, sink2);
      AnotherWriter.Change[] change = {null};
      int[] rowsAtChange = {0};
      injector.drive(
          second,
          "phase 2 of " + what,
          schedule.faults().subList(FAULTS_PER_PHASE, schedule.faults().size()),
          4,
          () -> false,
          () -> {
            if (change[0] == null && gate2.closed() && server.latestVersion(TABLE) > evolvedAt) {
              injector.clear();
              change[0] =
                  AnotherWriter.addColumn(
                      connection,
                      TABLE,
                      storage.storageOptions(),
                      new StructField(OTHER_WRITERS_COLUMN, StringType.STRING, true));
              rowsAtChange[0] = read(connection).rows().size();
              gate2.release();
            }
          });
      injector.clear();
      second.getJobExecutionResult().get();

      CatalogReads.Read read = read(connection);
      return new Result(
          count,
          phase1Rows,
          checkpointIdOf(savepoint),
          gate2.restored(),
          evolvedAt,
          change[0],
          rowsAtChange[0],
          read,
          ChaosEvolvingRows.Census.of(read.rows(), count, BUCKETS, 1),
          injector.tally(),
          S3FaultInterceptor.injected(),
          storage.missingVersions(prefix, read.version()),
          storage.keysSince(firstKey).stream()
              .mapToLong(CredentialEnforcingProxy.KeyStats::refusedExpired)
              .sum());
    } finally {
      ChaosMapper.disarm();
      S3FaultInterceptor.clear();
    }
  }

  private CatalogReads.Read read(UnityCatalogConnection connection) {
    return CatalogReads.read(connection, TABLE, storage.storageOptions());
  }

  /** A sink of rows of {@code type}, whose build evolves the table as {@code mode} allows. */
  private DeltaSink sink(UnityCatalogConnection connection, RowType type, SchemaEvolution mode) {
    return DeltaSink.builder()
        .unityCatalog(connection)
        .tableName(TABLE)
        .rowType(type)
        .partitionColumns("bucket")
        .schemaEvolution(mode)
        .hadoopOptions(storage.storageOptions())
        .option(DeltaSinkOptions.DELTA_CHECKPOINT_INTERVAL, 3)
        .uidPrefix("chaos-sink")
        .build();
  }

  /** Starts a job of {@code version}'s rows, restored from {@code savepoint} unless it is null. */
  private JobClient start(
      String savepoint,
      int version,
      long count,
      PhaseGate gate,
      FaultCounter writerFailures,
      DeltaSink sink)
      throws Exception {
    StreamExecutionEnvironment env =
        flink.job().checkpointEveryMillis(200).restarts(1_000).restoredFrom(savepoint).env();
    InternalTypeInfo<RowData> type =
        InternalTypeInfo.of(version == 1 ? ChaosEvolvingRows.V1 : ChaosEvolvingRows.V2);
    ChaosEvolvingRows.source(env, version, count, gate.rate(ChaosSchedule.ROWS_PER_SECOND), BUCKETS)
        .map(gate.probe())
        .uid("phase-probe")
        .returns(type)
        .map(new ChaosMapper<>(writerFailures))
        .uid("chaos-mapper")
        .returns(type)
        .sinkTo(sink)
        .uid("chaos-sink");
    return env.executeAsync("chaos evolution, version " + version);
  }

  /** Stops {@code job} with a savepoint, trying again while a restart keeps it from taking one. */
  private static String stopWithSavepoint(JobClient job, Path directory) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
    while (true) {
      try {
        return job.stopWithSavepoint(
                false, directory.toUri().toString(), SavepointFormatType.CANONICAL)
            .get(1, TimeUnit.MINUTES);
      } catch (ExecutionException e) {
        if (System.nanoTime() > deadline) {
          throw e;
        }
        Thread.sleep(200);
      }
    }
  }

  /** The checkpoint id a savepoint records. */
  private static long checkpointIdOf(String savepoint) throws IOException {
    Path metadata = Path.of(URI.create(savepoint)).resolve("_metadata");
    try (DataInputStream in = new DataInputStream(Files.newInputStream(metadata))) {
      return Checkpoints.loadCheckpointMetadata(
              in, ChaosEvolutionRun.class.getClassLoader(), savepoint)
          .getCheckpointId();
    }
  }
}
