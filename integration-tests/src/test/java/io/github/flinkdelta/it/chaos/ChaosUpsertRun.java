/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.chaos;

import io.github.flinkdelta.it.support.CatalogReads;
import io.github.flinkdelta.it.support.Changelog;
import io.github.flinkdelta.it.support.FaultCounter;
import io.github.flinkdelta.it.support.FlinkCluster;
import io.github.flinkdelta.it.support.S3FaultInterceptor;
import io.github.flinkdelta.s3testkit.CredentialEnforcingProxy;
import io.github.flinkdelta.sink.DeltaSink;
import io.github.flinkdelta.sink.DeltaSinkOptions;
import io.github.flinkdelta.testkit.UnityCatalogServer;
import io.github.flinkdelta.uc.Secret;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import java.util.List;
import java.util.Map;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.testutils.junit.SharedObjectsExtension;

/**
 * A chaos run into an upsert table: a {@link Changelog} drawn from the run's seed (updates,
 * redelivered inserts, deletes, of absent keys too, keys moving between partitions) over a fixed
 * key space, keyed by its primary key into a Unity Catalog managed table on S3, under every kind of
 * fault of the seed's {@link ChaosSchedule}. Deletes become deletion vectors, so S3 faults also hit
 * the deletion-vector files the committer writes, and a lost catalog response or TaskManager hits a
 * commit that removes and re-adds files. The writers compact their own files throughout, and
 * another writer runs {@code DELETE}, {@code UPDATE} and {@code OPTIMIZE} through the catalog
 * ({@link ChaosForeignWriter}). The table must then equal the changelog's replay with the
 * statements applied where they ran.
 */
final class ChaosUpsertRun {

  static final String TABLE = "main.default.chaos_upsert";

  /** Keys the changelog touches: a few hundred, so that most changes replace a live row. */
  static final long KEYS = 300;

  private static final long EXTRA_CHANGES = 4_000;

  private static final String TOKEN = "chaos-token";

  private final FlinkCluster flink;
  private final MiniCluster cluster;
  private final ChaosInjector.TaskManagers taskManagers;
  private final SharedObjectsExtension shared;
  private final ChaosStorage storage;

  ChaosUpsertRun(
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
   * @param changes the changes sent, 0 to changes - 1
   * @param expected the rows the changelog replays to with the foreign statements, by key
   * @param statements the foreign statements run, in order
   * @param read the table at the end
   */
  record Result(
      long changes,
      Map<Long, List<Object>> expected,
      List<ChaosForeignWriter.Ran> statements,
      CatalogReads.Read read,
      long deletionVectors,
      long compactions,
      ChaosTally faults,
      int s3RequestsFaulted,
      List<Long> missingVersions,
      long refusedExpired) {}

  Result run(long seed) throws Exception {
    ChaosSchedule schedule = ChaosSchedule.of(seed);
    Changelog changelog = new Changelog(KEYS, seed);
    // 10 s of changes more than the plan's rows: commits that delete rows of the files committed
    // under the faults, and writers' compactions of them, come after the last of them too.
    long changes = schedule.rows() + EXTRA_CHANGES;
    String prefix = "upsert-" + Long.toHexString(seed);
    int firstKey = storage.keysVended();
    FaultCounter writerFailures = FaultCounter.in(shared);
    try (UnityCatalogServer server = storage.catalog(prefix, TOKEN)) {
      ChaosInjector injector = new ChaosInjector(server, cluster, taskManagers, writerFailures);
      UnityCatalogConnection connection =
          new UnityCatalogConnection(server.uri(), Secret.of(TOKEN));
      StreamExecutionEnvironment env = flink.job().checkpointEveryMillis(200).restarts(1_000).env();
      changelog
          .source(env, 0, changes, ChaosSchedule.ROWS_PER_SECOND)
          // One mapper after the one source reader: the changes of a key keep their order.
          .map(new ChaosMapper<>(writerFailures))
          .setParallelism(1)
          .returns(InternalTypeInfo.of(Changelog.TYPE))
          .sinkTo(
              DeltaSink.builder()
                  .unityCatalog(connection)
                  .tableName(TABLE)
                  .rowType(Changelog.TYPE)
                  .primaryKey("id")
                  .partitionColumns("bucket")
                  .hadoopOptions(storage.storageOptions())
                  .option(DeltaSinkOptions.DELTA_CHECKPOINT_INTERVAL, 3)
                  // The writers compact their own files under the same faults.
                  .option(DeltaSinkOptions.COMPACTION_ENABLED, true)
                  .option(DeltaSinkOptions.COMPACTION_TRIGGER_COMMITS, 1)
                  .option(DeltaSinkOptions.COMPACTION_MIN_INPUT_FILES, 2)
                  .build());
      JobClient job = env.executeAsync("chaos upserts " + prefix);
      List<ChaosForeignWriter.Ran> statements;
      try (ChaosForeignWriter foreign =
          ChaosForeignWriter.start(seed, changes, connection, TABLE, storage.storageOptions())) {
        injector.drive(
            job, "the upsert run with seed " + seed, schedule.faults(), 4, () -> false, () -> {});
        injector.clear();
        job.getJobExecutionResult().get();
        statements = foreign.finish();
      }

      CatalogReads.Read read = CatalogReads.read(connection, TABLE, storage.storageOptions());
      return new Result(
          changes,
          ChaosForeignWriter.expected(changelog, changes, statements),
          statements,
          read,
          storage.deletionVectorFiles(prefix),
          storage.compactions(prefix),
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
}
