/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.it.support.FlinkCluster;
import io.github.flinkdelta.it.support.TestRows;
import io.github.flinkdelta.sink.DeltaSink;
import java.nio.file.Path;
import java.util.List;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** A null arriving for a NOT NULL column in the middle of a checkpoint. */
class BadRowITCase {

  @RegisterExtension static final FlinkCluster FLINK = FlinkCluster.create();

  private static final long BAD_ROW = 1_500;

  @TempDir Path dir;

  @Test
  void nullInNotNullColumnFailsNamingTableAndColumnAndCommitsNothingOfItsCheckpoint() {
    String table = dir.resolve("not-null").toUri().toString();
    StreamExecutionEnvironment env = FLINK.job().checkpointEveryMillis(100).parallelism(1).env();
    DataGeneratorSource<RowData> source =
        new DataGeneratorSource<>(
            i -> i == BAD_ROW ? GenericRowData.of(null, 0, null) : TestRows.row(i, 3),
            3_000,
            RateLimiterStrategy.perSecond(1_000),
            InternalTypeInfo.of(TestRows.TYPE));
    env.fromSource(source, WatermarkStrategy.noWatermarks(), "generator")
        .sinkTo(DeltaSink.builder().tablePath(table).rowType(TestRows.TYPE).build());

    assertThatThrownBy(() -> env.execute("bad row"))
        .satisfies(
            e ->
                assertThat(ExceptionUtils.stringifyException(e))
                    .contains("Table " + table + ": column 'id' is NOT NULL"));

    // Earlier checkpoints stay committed, in order and complete; nothing of the failing one. A
    // checkpoint can complete right after the last good row, so rows 0..BAD_ROW-1 may all be in.
    List<List<Object>> rows = DeltaTableReader.readAll(table);
    assertThat(rows).isNotEmpty().hasSizeLessThanOrEqualTo((int) BAD_ROW);
    assertThat(rows).containsExactlyInAnyOrderElementsOf(TestRows.expected(rows.size(), 3));
  }
}
