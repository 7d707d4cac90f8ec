/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.examples;

import io.github.flinkdelta.sink.maintenance.TableMaintenanceCommand;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Table maintenance on the table the upsert example writes: the job's one-second checkpoints leave
 * many small files, most with deletion vectors; the standalone command compacts them into one file
 * per partition (the deleted rows dropped, the rows read the same), then a vacuum dry run lists
 * what a vacuum would delete now — nothing yet, as every file is younger than the retention.
 *
 * <p>Prints the table's path, its data files before and after, the command's lines, and whether its
 * rows stayed the same; fails if they did not.
 *
 * <p>Arguments: {@code [--path <directory>]}, as for {@link UpsertExample}.
 */
public final class MaintenanceExample {

  private MaintenanceExample() {}

  public static void main(String[] args) throws Exception {
    Path dir =
        args.length >= 2 && args[0].equals("--path")
            ? Path.of(args[1])
            : Files.createTempDirectory("flink-delta-maintenance");
    maintain(UpsertExample.run(dir));
  }

  /** Compacts {@code table}, checks its rows, and lists what a vacuum would delete now. */
  static void maintain(String table) throws Exception {
    String rows = TableContents.rows(table);
    long before = TableContents.dataFiles(table);

    System.out.println();
    System.out.println("Compacting " + table + " (" + before + " data files)");
    TableMaintenanceCommand.run(
        new String[] {"compact", table, "--option", "sink.compaction.min-input-files=2"},
        line -> System.out.println("  " + line));
    System.out.println(
        "Data files: " + before + " before, " + TableContents.dataFiles(table) + " after");
    if (!TableContents.rows(table).equals(rows)) {
      throw new IllegalStateException("compaction changed the table's rows");
    }
    System.out.println("Rows: the same " + rows.lines().count() + " rows as before compaction.");

    System.out.println("Vacuum, dry run (files younger than the 7-day retention stay):");
    TableMaintenanceCommand.run(
        new String[] {"vacuum", table, "--dry-run"}, line -> System.out.println("  " + line));
  }
}
