/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.source;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkdelta.core.table.DeltaTable;
import io.github.flinkdelta.core.testing.TestTables;
import io.github.flinkdelta.it.support.FlinkCluster;
import io.github.flinkdelta.source.DeltaSource;
import io.github.flinkdelta.source.DeltaSourceOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple3;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.util.CloseableIterator;
import org.apache.flink.util.Collector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Watermarks from a timestamp column: a table written out of time order is read oldest first with
 * no row late to the watermarks the source emits, and a reader with nothing to read does not hold
 * the job's watermark back.
 */
class DeltaSourceWatermarkITCase {

  @RegisterExtension static final FlinkCluster FLINK = FlinkCluster.create();

  private static final RowType TYPE =
      RowType.of(
          new LogicalType[] {new BigIntType(false), new LocalZonedTimestampType(6)},
          new String[] {"id", "at"});

  private static final long HOUR = 3_600_000L;
  private static final long BASE = 1_700_000_000_000L;
  private static final int ROWS_PER_FILE = 500;

  @TempDir Path dir;

  @Test
  void aTableWrittenOutOfTimeOrderIsReadWithNoRowLateToTheSourcesWatermarks() throws Exception {
    String table = dir.resolve("newest-first").toUri().toString();
    // Versions 1 to 12 hold the hours out of order, neither oldest nor newest first (a snapshot's
    // files come newest version first); within a file the times fall and rise again.
    for (long hour : new long[] {7, 2, 11, 4, 9, 1, 12, 5, 3, 10, 6, 8}) {
      writeHour(table, hour);
    }
    StreamExecutionEnvironment env = FLINK.job().env();
    env.setParallelism(2);

    List<Tuple3<Long, Long, Long>> seen = new ArrayList<>();
    try (CloseableIterator<Tuple3<Long, Long, Long>> it =
        env.fromSource(
                DeltaSource.builder().tablePath(table).bounded().watermarkColumn("at").build(),
                WatermarkStrategy.noWatermarks(),
                "delta source")
            .process(new WithWatermark())
            .setParallelism(1)
            .executeAndCollect()) {
      it.forEachRemaining(seen::add);
    }

    assertThat(seen.stream().map(t -> t.f0))
        .as("every row once")
        .containsExactlyInAnyOrderElementsOf(
            LongStream.rangeClosed(1, 12)
                .flatMap(hour -> LongStream.range(0, ROWS_PER_FILE).map(i -> hour * 1000 + i))
                .boxed()
                .toList());
    assertThat(seen)
        .as("each row's timestamp is its time")
        .allSatisfy(t -> assertThat(t.f1).isEqualTo(timeOf(t.f0)));
    assertThat(seen.stream().filter(t -> t.f1 <= t.f2).count()).as("late rows").isZero();
    Set<Long> watermarks =
        seen.stream().map(t -> t.f2).filter(w -> w > Long.MIN_VALUE).collect(Collectors.toSet());
    // How many steps the rows see depends on how the two readers' progress interleaves (the
    // job's watermark is the lesser of theirs), which the machine's load decides: a count of them
    // would test the scheduler. That the rows saw watermarks, and only ones the files' times allow,
    // does not depend on it.
    assertThat(watermarks)
        .as("the rows saw watermarks, each within the hours the files hold")
        .isNotEmpty()
        .allSatisfy(w -> assertThat((w - BASE) / HOUR).isBetween(0L, 12L));
  }

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void aContinuousReadsWatermarkGoesOnWhileAReaderWaitsForFiles() throws Exception {
    String table = dir.resolve("one-file-at-a-time").toUri().toString();
    writeHour(table, 1);
    StreamExecutionEnvironment env = FLINK.job().env();
    env.setParallelism(2);

    // Two readers and one file per version: one reader always waits, and the job's watermark, the
    // least of both readers', goes on only while the waiting one is idle.
    try (CloseableIterator<Long> watermarks =
        env.fromSource(
                DeltaSource.builder()
                    .tablePath(table)
                    .continuous()
                    .option(DeltaSourceOptions.POLL_INTERVAL, Duration.ofMillis(100))
                    .watermarkColumn("at")
                    .build(),
                WatermarkStrategy.noWatermarks(),
                "delta source")
            .transform("watermarks", Types.LONG, new Watermarks())
            .setParallelism(1)
            .executeAndCollect()) {
      for (long hour = 1; hour <= 3; hour++) {
        if (hour > 1) {
          writeHour(table, hour);
        }
        long watermark = Long.MIN_VALUE;
        while (watermark < leastOf(hour) - 1) {
          watermark = watermarks.next();
        }
        assertThat(watermark)
            .as("the watermark of hour %d's file", hour)
            .isEqualTo(leastOf(hour) - 1);
      }
    }
  }

  /** One version: a file of {@code hour}'s rows, ids {@code hour * 1000 + i}. */
  private static void writeHour(String table, long hour) throws Exception {
    List<RowData> rows = new ArrayList<>();
    for (long i = 0; i < ROWS_PER_FILE; i++) {
      long id = hour * 1000 + i;
      rows.add(GenericRowData.of(id, TimestampData.fromEpochMillis(timeOf(id))));
    }
    try (DeltaTable delta = TestTables.create(table, TYPE, List.of(), Map.of())) {
      delta.commit(
          "writer",
          delta.snapshot().getVersion() + 1,
          TestTables.writeFiles(table, TYPE, List.of(), rows));
    }
  }

  /** The least time of the rows of {@code hour}. */
  private static long leastOf(long hour) {
    return BASE + hour * HOUR;
  }

  /** Row {@code id}'s time: in its hour, falling for the first half of the file, then rising. */
  private static long timeOf(long id) {
    long hour = id / 1000;
    long i = id % 1000;
    return BASE + hour * HOUR + Math.abs(i - ROWS_PER_FILE / 2) * 1000;
  }

  /** Each row's id and timestamp, and the watermark it arrived under. */
  private static final class WithWatermark
      extends ProcessFunction<RowData, Tuple3<Long, Long, Long>> {
    @Override
    public void processElement(
        RowData row, Context context, Collector<Tuple3<Long, Long, Long>> out) {
      out.collect(
          Tuple3.of(
              row.getLong(0), context.timestamp(), context.timerService().currentWatermark()));
    }
  }

  /** Emits each watermark it receives, and no row. */
  private static final class Watermarks extends AbstractStreamOperator<Long>
      implements OneInputStreamOperator<RowData, Long> {
    @Override
    public void processElement(StreamRecord<RowData> element) {}

    @Override
    public void processWatermark(Watermark mark) throws Exception {
      super.processWatermark(mark);
      output.collect(new StreamRecord<>(mark.getTimestamp()));
    }
  }
}
