/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.it.support.TestRows;
import io.github.flinkdelta.sink.DeltaSink;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptionsInternal;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job that starts again without state under the same JobID, as Flink's HA application mode does
 * when it re-runs a job whose checkpoints are gone. Its checkpoint ids start again at 1: a sink
 * whose transaction ids are (JobID, checkpoint id) would take the new commits for ones already made
 * and drop them. Each fresh start of this sink commits under a new app id, so nothing is dropped.
 */
class StatelessRestartITCase {

  private static final int BUCKETS = 3;
  private static final long ROWS = 2_000;

  @TempDir Path dir;

  @Test
  void aStatelessRestartUnderTheSameJobIdDropsNoCommit() throws Exception {
    String table = dir.resolve("same-job-id").toUri().toString();
    JobID jobId = new JobID();

    JobExecutionResult first = run(table, jobId, 0);
    long versionsAfterFirst = DeltaTableReader.version(table);
    JobExecutionResult second = run(table, jobId, ROWS);

    assertThat(first.getJobID()).isEqualTo(jobId);
    assertThat(second.getJobID()).isEqualTo(jobId);
    // Both runs committed several checkpoints, so their checkpoint ids overlap.
    assertThat(versionsAfterFirst).isGreaterThan(2);
    assertThat(DeltaTableReader.version(table)).isGreaterThan(versionsAfterFirst + 1);
    List<List<Object>> expected = new ArrayList<>(TestRows.expected(2 * ROWS, BUCKETS));
    assertThat(DeltaTableReader.readAll(table)).containsExactlyInAnyOrderElementsOf(expected);
  }

  /** Runs a job of rows offset..offset+ROWS-1 on a cluster of its own under {@code jobId}. */
  private static JobExecutionResult run(String table, JobID jobId, long offset) throws Exception {
    Configuration conf = new Configuration();
    conf.set(PipelineOptionsInternal.PIPELINE_FIXED_JOB_ID, jobId.toHexString());
    StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2, conf);
    env.enableCheckpointing(100);
    TestRows.source(env, ROWS, 2_000, BUCKETS)
        .map(row -> TestRows.row(row.getLong(0) + offset, BUCKETS))
        .returns(InternalTypeInfo.of(TestRows.TYPE))
        .sinkTo(
            DeltaSink.builder()
                .tablePath(table)
                .rowType(TestRows.TYPE)
                .partitionColumns("bucket")
                .build());
    return env.execute("stateless restart");
  }
}
