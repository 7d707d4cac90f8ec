/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.maintenance;

import io.github.flinkdelta.common.HadoopOptions;
import io.github.flinkdelta.common.UnityCatalogOptions;
import io.github.flinkdelta.core.maintenance.CompactionOptions;
import io.github.flinkdelta.core.storage.HadoopConfigurations;
import io.github.flinkdelta.sink.DeltaSinkOptions;
import io.github.flinkdelta.uc.internal.UnityCatalogClient;
import io.github.flinkdelta.uc.internal.UnityCatalogTableName;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.util.TimeUtils;
import org.apache.hadoop.util.ShutdownHookManager;

/**
 * Compacts or vacuums Delta tables in a bounded Flink job, one table per task at a time: the
 * standalone form of the sink's maintenance, for tables written by any job (or by none).
 *
 * <pre>
 * TableMaintenanceCommand compact|vacuum TABLE... [--dry-run] [--retention 7d] [--parallelism N]
 *                  [--option KEY=VALUE]...
 * </pre>
 *
 * <p>A TABLE is a path ({@code file:///...}, {@code s3a://...}) or a Unity Catalog name {@code
 * catalog.schema.table}; {@code catalog.schema.*} names every table of a schema. Options are the
 * sink's: {@code sink.compaction.*} for compaction, {@code uc.*} for the catalog, {@code hadoop.*}
 * for storage. Each table's outcome is printed on a line of its own; the command exits with 1 when
 * one failed.
 */
@PublicEvolving
public final class TableMaintenanceCommand {

  private TableMaintenanceCommand() {}

  public static void main(String[] args) throws Exception {
    List<String> failed = run(args, System.out::println);
    if (!failed.isEmpty()) {
      System.exit(1);
    }
  }

  /**
   * Runs the command of {@code args} and hands each table's line to {@code out}.
   *
   * @return the lines of the tables whose maintenance failed
   */
  public static List<String> run(String[] args, java.util.function.Consumer<String> out)
      throws Exception {
    if (args.length < 2) {
      throw new IllegalArgumentException(
          "Usage: TableMaintenanceCommand compact|vacuum TABLE... [--dry-run] [--retention 7d]"
              + " [--parallelism N] [--option KEY=VALUE]...");
    }
    String command = args[0];
    List<String> tables = new ArrayList<>();
    Map<String, String> options = new LinkedHashMap<>();
    boolean dryRun = false;
    Duration retention = Duration.ofDays(7);
    int parallelism = 1;
    for (int i = 1; i < args.length; i++) {
      switch (args[i]) {
        case "--dry-run" -> dryRun = true;
        case "--retention" -> retention = TimeUtils.parseDuration(args[++i]);
        case "--parallelism" -> parallelism = Integer.parseInt(args[++i]);
        case "--option" -> {
          String option = args[++i];
          int eq = option.indexOf('=');
          if (eq <= 0) {
            throw new IllegalArgumentException("--option takes KEY=VALUE, got " + option);
          }
          options.put(option.substring(0, eq), option.substring(eq + 1));
        }
        default -> tables.add(args[i]);
      }
    }
    MaintenanceAction action =
        switch (command) {
          case "compact" ->
              new MaintenanceAction.Compact(
                  CompactionOptions.from(Configuration.fromMap(options)),
                  options.getOrDefault(DeltaSinkOptions.APP_ID.key(), "flink-delta-maintenance"));
          case "vacuum" -> new MaintenanceAction.Vacuum(retention, dryRun);
          default ->
              throw new IllegalArgumentException(
                  "Unknown command '" + command + "': use compact or vacuum");
        };
    List<String> targets = expand(tables, options);
    // Hadoop's shutdown hook keeps the context class loader of the thread that first loads it: the
    // client's, not a task's, which is closed by the time the JVM exits.
    ShutdownHookManager.get();
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setRuntimeMode(RuntimeExecutionMode.BATCH);
    env.fromData(targets)
        .rebalance()
        .flatMap(new MaintenanceTask(action, options))
        .name("Delta " + command)
        .setParallelism(Math.max(1, Math.min(parallelism, targets.size())))
        .sinkTo(new DiscardingSink<>());
    List<String> lines =
        env.execute("Delta table maintenance: " + command)
            .getAccumulatorResult(MaintenanceTask.LINES);
    List<String> failed = new ArrayList<>();
    for (String line : lines == null ? List.<String>of() : lines) {
      out.accept(line);
      if (line.startsWith(MaintenanceTask.FAILED)) {
        failed.add(line);
      }
    }
    return failed;
  }

  /** The tables named, with every table of each {@code catalog.schema.*}. */
  private static List<String> expand(List<String> tables, Map<String, String> options) {
    List<String> expanded = new ArrayList<>();
    for (String table : tables) {
      if (!table.endsWith(".*") || table.contains("://")) {
        expanded.add(table);
        continue;
      }
      String[] parts = table.substring(0, table.length() - 2).split("\\.");
      if (parts.length != 2) {
        throw new IllegalArgumentException(
            "A whole schema is named catalog.schema.*, got " + table);
      }
      try (UnityCatalogClient client =
          new UnityCatalogClient(
              UnityCatalogOptions.connection(Configuration.fromMap(options), "Schema " + table),
              HadoopConfigurations.of(HadoopOptions.from("Table maintenance", options)))) {
        for (String name : client.namespace(parts[0]).tables(parts[1])) {
          expanded.add(new UnityCatalogTableName(parts[0], parts[1], name).toString());
        }
      }
    }
    return expanded;
  }
}
