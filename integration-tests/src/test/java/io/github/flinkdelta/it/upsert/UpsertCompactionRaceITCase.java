/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.upsert;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.flinkdelta.core.catalog.PathTableLocator;
import io.github.flinkdelta.core.maintenance.CompactionOptions;
import io.github.flinkdelta.core.storage.HadoopConfigurations;
import io.github.flinkdelta.core.table.DeltaTable;
import io.github.flinkdelta.core.table.TableRequest;
import io.github.flinkdelta.core.write.FileWriteOptions;
import io.github.flinkdelta.it.support.Await;
import io.github.flinkdelta.it.support.Changelog;
import io.github.flinkdelta.it.support.DeltaLogFiles;
import io.github.flinkdelta.it.support.FailingMapper;
import io.github.flinkdelta.it.support.FaultCounter;
import io.github.flinkdelta.it.support.FlinkCluster;
import io.github.flinkdelta.it.support.UpsertAssert;
import io.github.flinkdelta.sink.DeltaSink;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.testutils.junit.SharedObjectsExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Compaction racing a streaming upsert job, with faults in both: the job's task fails twice, every
 * third compaction crashes after writing its files and before committing them, and runs are
 * interrupted at random. Compaction yields when the sink's commit touched a file first; when
 * compaction wins, the sink settles its deletes by key and restarts to rebuild its index. At the
 * end the table equals the changelog's reference map, each key once in every version, and no file a
 * compaction removed is ever added again.
 */
class UpsertCompactionRaceITCase {

  @RegisterExtension static final FlinkCluster FLINK = FlinkCluster.create();
  @RegisterExtension final SharedObjectsExtension shared = SharedObjectsExtension.create();

  private static final long CHANGES = 6_000;
  private static final CompactionOptions OPTIONS =
      new CompactionOptions(128L << 20, 2, 1L << 30, 0.1);
  private static final FileWriteOptions WRITE_OPTIONS =
      FileWriteOptions.from(new Configuration()).withTargetFileSize(OPTIONS.targetFileSizeBytes());

  @TempDir Path dir;

  @Test
  void anUpsertStreamAndCompactionsRacingUnderFaultsLeaveExactlyTheLastValueOfEveryKey()
      throws Exception {
    String table = dir.resolve("raced").toUri().toString();
    Changelog changelog = new Changelog(300);
    FaultCounter taskFailures = FaultCounter.in(shared);
    StreamExecutionEnvironment env =
        FLINK.job().parallelism(2).checkpointEveryMillis(300).restarts(100).env();
    changelog
        .source(env, 0, CHANGES, 1_000)
        .map(FailingMapper.untilFired(taskFailures, 2, 300))
        .setParallelism(1)
        .returns(InternalTypeInfo.of(Changelog.TYPE))
        .sinkTo(
            DeltaSink.builder().tablePath(table).rowType(Changelog.TYPE).primaryKey("id").build());
    JobClient job = env.executeAsync("upserts racing compactions");

    Compactor compactor = new Compactor(table, new Random(20_21));
    Thread compacting = new Thread(compactor, "compactor");
    Await.until(job, "a first commit", () -> DeltaLogFiles.versions(table).size() > 2);
    compacting.start();
    Random faults = new Random(7);
    while (!job.getJobStatus().get().isGloballyTerminalState()) {
      Thread.sleep(50 + faults.nextInt(200));
      if (faults.nextInt(3) == 0) {
        compactor.interruptRun(compacting);
      }
    }
    compactor.stop();
    compacting.join(TimeUnit.MINUTES.toMillis(1));
    job.getJobExecutionResult().get();

    assertThat(taskFailures.count()).as("task failures injected").isEqualTo(2);
    assertThat(compactor.committed.get()).as("compactions committed").isGreaterThan(1);
    assertThat(compactor.crashed.get()).as("compactions crashed before their commit").isPositive();
    UpsertAssert.assertExact(table, changelog.expected(CHANGES));
    UpsertAssert.assertNoVersionRepeatsAKey(table);
    Set<String> compactedAway = new HashSet<>();
    for (long version : DeltaLogFiles.versions(table)) {
      List<JsonNode> adds = DeltaLogFiles.actions(table, version, "add");
      assertThat(adds)
          .extracting(add -> add.get("path").asText())
          .as("files version %d adds after a compaction removed them", version)
          .noneMatch(compactedAway::contains);
      for (JsonNode remove : DeltaLogFiles.actions(table, version, "remove")) {
        if (!remove.get("dataChange").asBoolean()) {
          compactedAway.add(remove.get("path").asText());
        }
      }
    }
  }

  /** Compacts the table again and again until stopped; a run may be interrupted. */
  private static final class Compactor implements Runnable {

    private final String table;
    private final Random random;
    private final AtomicBoolean stopped = new AtomicBoolean();
    private final AtomicBoolean running = new AtomicBoolean();
    final AtomicInteger committed = new AtomicInteger();
    final AtomicInteger interrupted = new AtomicInteger();
    final AtomicInteger crashed = new AtomicInteger();

    Compactor(String table, Random random) {
      this.table = table;
      this.random = random;
    }

    @Override
    public void run() {
      for (int run = 0; !stopped.get(); run++) {
        try (DeltaTable delta =
            DeltaTable.open(
                TableRequest.of(new PathTableLocator(table), HadoopConfigurations.of(Map.of())))) {
          running.set(true);
          if (run % 3 == 0) {
            // The compactor crashes after writing its files, before committing them.
            if (delta.maintenance().prepareCompaction(OPTIONS, WRITE_OPTIONS).isPresent()) {
              crashed.incrementAndGet();
            }
          } else if (delta.maintenance().compact(OPTIONS, "race-compactor").committed()) {
            committed.incrementAndGet();
          }
          running.set(false);
          Thread.sleep(random.nextInt(100));
        } catch (Exception e) {
          running.set(false);
          // An interrupt that reached the run is an injected fault; nothing else may fail.
          if (Thread.interrupted() || interruptedCause(e)) {
            interrupted.incrementAndGet();
          } else if (!stopped.get()) {
            throw new AssertionError("compaction failed without an injected fault", e);
          }
        }
      }
    }

    void interruptRun(Thread thread) {
      if (running.get()) {
        thread.interrupt();
      }
    }

    void stop() {
      stopped.set(true);
    }

    private static boolean interruptedCause(Throwable e) {
      for (Throwable t = e; t != null; t = t.getCause()) {
        if (t instanceof InterruptedException
            || t instanceof java.io.InterruptedIOException
            || t instanceof java.nio.channels.ClosedByInterruptException) {
          return true;
        }
      }
      return false;
    }
  }
}
