/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.sink;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.it.support.FlinkCluster;
import io.github.flinkdelta.sink.DeltaSink;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.example.GroupReadSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * With {@code pipeline.object-reuse} on, Flink hands the sink the very object its chained source
 * emits, with no copy in between, and the source may overwrite it for the next record. The sink
 * keeps nothing of a row past {@code write}: rows, partition values and the statistics of every
 * file come out exactly as if each row had been a fresh object.
 */
class ObjectReuseITCase {

  @RegisterExtension static final FlinkCluster FLINK = FlinkCluster.create();

  private static final RowType TYPE =
      RowType.of(
          new LogicalType[] {
            new BigIntType(false),
            new VarCharType(VarCharType.MAX_LENGTH),
            new VarCharType(VarCharType.MAX_LENGTH)
          },
          new String[] {"id", "region", "payload"});
  private static final int REGIONS = 7;
  private static final long COUNT = 20_000;

  @TempDir Path dir;

  @Test
  void rowsOverwrittenBySourceAfterEachWriteLandExactly() throws Exception {
    Path root = dir.resolve("reused");
    String table = root.toUri().toString();
    StreamExecutionEnvironment env = FLINK.job().checkpointEveryMillis(200).env();
    env.getConfig().enableObjectReuse();
    DataGeneratorSource<RowData> source =
        new DataGeneratorSource<>(new OneMutableRow(), COUNT, InternalTypeInfo.of(TYPE));
    env.fromSource(source, WatermarkStrategy.noWatermarks(), "reused rows")
        .sinkTo(
            // Without column mapping, statistics and footers use the column names read below.
            DeltaSink.builder()
                .tablePath(table)
                .rowType(TYPE)
                .partitionColumns("region")
                .tableProperty("delta.columnMapping.mode", "none")
                .build());
    env.execute("object reuse");

    List<List<Object>> expected = new ArrayList<>();
    for (long i = 0; i < COUNT; i++) {
      expected.add(List.of(i, region(i), payload(i)));
    }
    assertThat(DeltaTableReader.readAll(table)).containsExactlyInAnyOrderElementsOf(expected);
    assertEveryFilesStatisticsMatchItsRows(root);
  }

  /** Each add action's id and payload range is that of the rows in its file. */
  private static void assertEveryFilesStatisticsMatchItsRows(Path root) throws Exception {
    ObjectMapper json = new ObjectMapper();
    int files = 0;
    try (Stream<Path> commits = Files.list(root.resolve("_delta_log"))) {
      for (Path commit : commits.filter(p -> p.toString().endsWith(".json")).toList()) {
        for (String line : Files.readAllLines(commit)) {
          JsonNode add = json.readTree(line).get("add");
          if (add == null) {
            continue;
          }
          JsonNode stats = json.readTree(add.get("stats").asText());
          long minId = Long.MAX_VALUE;
          long maxId = Long.MIN_VALUE;
          String minPayload = null;
          String maxPayload = null;
          long rows = 0;
          org.apache.hadoop.fs.Path file =
              new org.apache.hadoop.fs.Path(root.toUri().toString(), add.get("path").asText());
          try (ParquetReader<Group> reader =
              ParquetReader.builder(new GroupReadSupport(), file)
                  .withConf(new Configuration())
                  .build()) {
            for (Group row = reader.read(); row != null; row = reader.read()) {
              long id = row.getLong("id", 0);
              String payload = row.getString("payload", 0);
              minId = Math.min(minId, id);
              maxId = Math.max(maxId, id);
              minPayload =
                  minPayload == null || payload.compareTo(minPayload) < 0 ? payload : minPayload;
              maxPayload =
                  maxPayload == null || payload.compareTo(maxPayload) > 0 ? payload : maxPayload;
              rows++;
            }
          }
          assertThat(stats.get("numRecords").asLong()).isEqualTo(rows);
          assertThat(stats.at("/minValues/id").asLong()).isEqualTo(minId);
          assertThat(stats.at("/maxValues/id").asLong()).isEqualTo(maxId);
          assertThat(stats.at("/minValues/payload").asText()).isEqualTo(minPayload);
          assertThat(stats.at("/maxValues/payload").asText()).isEqualTo(maxPayload);
          files++;
        }
      }
    }
    assertThat(files).isGreaterThan(REGIONS);
  }

  static String region(long i) {
    return "region-" + (i % REGIONS);
  }

  static String payload(long i) {
    return "payload-" + String.format("%08d", (i * 7_919) % 100_000_000L) + "-" + "x".repeat(12);
  }

  /**
   * Emits one {@link GenericRowData} per subtask, overwritten for every record, whose strings are
   * views of two byte arrays that are overwritten too.
   */
  private static final class OneMutableRow implements GeneratorFunction<Long, RowData> {
    private transient GenericRowData row;
    private transient byte[] region;
    private transient byte[] payload;

    @Override
    public void open(SourceReaderContext context) {
      row = new GenericRowData(3);
      region = new byte[region(0).length()];
      payload = new byte[payload(0).length()];
      row.setField(1, StringData.fromBytes(region));
      row.setField(2, StringData.fromBytes(payload));
    }

    @Override
    public RowData map(Long i) {
      row.setField(0, i);
      overwrite(region, region(i));
      overwrite(payload, payload(i));
      return row;
    }

    private static void overwrite(byte[] target, String value) {
      byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
      System.arraycopy(bytes, 0, target, 0, target.length);
    }
  }
}
