/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.examples;

import io.github.flinkdelta.sink.DeltaSink;
import io.github.flinkdelta.testkit.UnityCatalogServer;
import io.github.flinkdelta.uc.Secret;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.core.execution.DetachedJobExecutionResult;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.DateType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;

/**
 * Starts an embedded Unity Catalog server with storage on local disk, streams generated click
 * events into the managed table {@code main.default.clicks} with a checkpoint (and so a
 * catalog-ratified Delta commit) every two seconds, then prints the catalog's latest version and
 * the rows read back through the catalog.
 *
 * <p>Arguments: {@code [storage-directory] [rows] [rows-per-second]}; by default a new directory
 * under the system temp directory, 20,000 rows, 2,000 rows per second. With {@code UC_URI} set (and
 * {@code UC_TOKEN}, {@code UC_CATALOG}, {@code UC_SCHEMA}), it writes a new managed table of that
 * Unity Catalog instead of the embedded one; {@code UC_COMMIT_API} ({@code AUTO}, the default,
 * {@code DELTA_V1} or {@code LEGACY}) chooses the catalog API that ratifies its commits.
 *
 * <p>Environment variables do not reach a job submitted to a running cluster (its {@code main} runs
 * in the JobManager for a submission through the REST API), so each can also be given as an option
 * before the positional arguments: {@code --uc-uri}, {@code --uc-token}, {@code --uc-catalog},
 * {@code --uc-schema}, {@code --uc-commit-api}, and {@code --uc-table} for the table's name in the
 * schema (by default {@code clicks_} and the time). Submitted detached (the REST API, {@code flink
 * run -d}), it returns once the job is submitted, without reading back.
 */
public final class Quickstart {

  static final RowType CLICK =
      RowType.of(
          new LogicalType[] {
            new BigIntType(false),
            new VarCharType(VarCharType.MAX_LENGTH),
            new VarCharType(VarCharType.MAX_LENGTH),
            new DoubleType(),
            new LocalZonedTimestampType(6),
            new DateType()
          },
          new String[] {"id", "user", "page", "duration_ms", "event_time", "event_date"});

  /** The token for the embedded catalog, which accepts any. */
  private static final String TOKEN = "quickstart";

  private Quickstart() {}

  public static void main(String[] arguments) throws Exception {
    Map<String, String> options = new HashMap<>(System.getenv());
    List<String> args = new ArrayList<>(Arrays.asList(arguments));
    while (args.size() >= 2 && args.get(0).startsWith("--")) {
      String name = args.remove(0).substring(2).toUpperCase(Locale.ROOT).replace('-', '_');
      options.put(name, args.remove(0));
    }
    Path dir =
        args.size() > 0
            ? Path.of(args.get(0))
            : Files.createTempDirectory("flink-delta-quickstart");
    long rows = args.size() > 1 ? Long.parseLong(args.get(1)) : 20_000;
    double perSecond = args.size() > 2 ? Double.parseDouble(args.get(2)) : 2_000;
    String external = options.get("UC_URI");
    if (external != null) {
      // Your own Unity Catalog: a new managed table in UC_CATALOG.UC_SCHEMA.
      String table =
          options.getOrDefault("UC_CATALOG", "main")
              + "."
              + options.getOrDefault("UC_SCHEMA", "default")
              + "."
              + options.getOrDefault("UC_TABLE", "clicks_" + System.currentTimeMillis());
      run(
          URI.create(external),
          options.getOrDefault("UC_TOKEN", ""),
          UnityCatalogConnection.CommitApi.valueOf(options.getOrDefault("UC_COMMIT_API", "AUTO")),
          table,
          rows,
          perSecond);
      return;
    }
    try (UnityCatalogServer catalog =
        UnityCatalogServer.builder().storageRoot(dir.resolve("storage")).build().start()) {
      run(
          catalog.uri(),
          TOKEN,
          UnityCatalogConnection.CommitApi.AUTO,
          "main.default.clicks",
          rows,
          perSecond);
    }
  }

  /** Streams {@code rows} click events into {@code table}, then reads them back. */
  private static void run(
      URI catalog,
      String token,
      UnityCatalogConnection.CommitApi commitApi,
      String table,
      long rows,
      double perSecond)
      throws Exception {
    UnityCatalogConnection connection =
        UnityCatalogConnection.builder(catalog.toString())
            .token(Secret.of(token))
            .commitApi(commitApi)
            .build();

    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(2);
    env.enableCheckpointing(Duration.ofSeconds(2).toMillis());

    DataGeneratorSource<RowData> clicks =
        new DataGeneratorSource<>(
            Quickstart::click,
            rows,
            RateLimiterStrategy.perSecond(perSecond),
            InternalTypeInfo.of(CLICK));

    DeltaSink sink =
        DeltaSink.builder()
            .unityCatalog(connection)
            .tableName(table)
            .rowType(CLICK)
            .partitionColumns("event_date")
            .build();

    env.fromSource(clicks, WatermarkStrategy.noWatermarks(), "clicks")
        .uid("clicks")
        .sinkTo(sink)
        .uid("clicks-delta-sink");
    JobExecutionResult result = env.execute("flink-delta quickstart");
    if (result instanceof DetachedJobExecutionResult) {
      System.out.println("Submitted job " + result.getJobID() + " writing " + table);
      return;
    }

    TableRows.TableCount read = TableRows.count(catalog, token, table);
    System.out.println();
    System.out.println("Unity Catalog:   " + catalog + UnityCatalogServer.API_BASE);
    System.out.println("Table:           " + table + " at " + read.location());
    System.out.println("Catalog version: " + read.version());
    System.out.println("Rows:            " + read.rows());
    if (read.rows() != rows) {
      throw new IllegalStateException(
          "expected " + rows + " rows but the table holds " + read.rows());
    }
  }

  private static RowData click(long i) {
    LocalDate day = LocalDate.of(2026, 11, 1).plusDays(i % 3);
    return GenericRowData.of(
        i,
        StringData.fromString("user-" + (i % 97)),
        StringData.fromString("/page/" + (i % 13)),
        (i * 37 % 1000) / 10.0,
        TimestampData.fromInstant(Instant.parse("2026-11-01T00:00:00Z").plusSeconds(i)),
        (int) day.toEpochDay());
  }
}
