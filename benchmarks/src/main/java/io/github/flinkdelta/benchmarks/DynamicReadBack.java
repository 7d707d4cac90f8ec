/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads every table of a dynamic run back and checks it: each table must hold exactly its rows
 * (appends: the rows routed to it; upserts: the last row of each live key routed to it), every row
 * once and with every column as generated. The tables' rows go into one digest, so a row that
 * landed twice, in one table or in two, counts as a duplicate. This sink's tables must be exact
 * (the run fails otherwise); a peer's shortfall is reported. A read that outlasts its limit
 * (Iceberg's reader loads the equality deletes that apply to a data file once per data file) is
 * reported as not finished, with the figures measured before it.
 */
final class DynamicReadBack {

  private DynamicReadBack() {}

  static void check(
      String name,
      DynamicContender contender,
      DynamicWorkload workload,
      long limitSeconds,
      Figures figures,
      Path result)
      throws Exception {
    Thread limit = limit(limitSeconds, figures, result);
    long started = System.nanoTime();
    DynamicWorkload.Expected expected = workload.expected();
    RowDigest digest = new RowDigest(workload.idSpace());
    List<String> wrongTables = new ArrayList<>();
    long rowsBefore = 0;
    for (int t = 0; t < workload.tables(); t++) {
      try {
        contender.read(t, digest);
      } catch (Exception e) {
        wrongTables.add(DynamicWorkload.tableName(t) + " unreadable (" + e + ")");
        continue;
      }
      long rows = digest.contents().rows();
      if (rows - rowsBefore != expected.rowsPerTable().get(t)) {
        wrongTables.add(
            String.format(
                "%s holds %,d rows, not %,d",
                DynamicWorkload.tableName(t), rows - rowsBefore, expected.rowsPerTable().get(t)));
      }
      rowsBefore = rows;
    }
    limit.interrupt();
    RowDigest.Contents read = digest.contents();
    boolean exact =
        wrongTables.isEmpty()
            && read.duplicates() == 0
            && read.outOfRange() == 0
            && read.equals(expected.digest());
    synchronized (figures) {
      figures
          .put("read_ms", (System.nanoTime() - started) / 1e6)
          .put("rows_read", read.rows())
          .put("rows_expected", expected.digest().rows())
          .put("rows_read_twice", read.duplicates())
          .put("tables_not_exact", wrongTables.size())
          .put("exact", exact);
    }
    if (!exact) {
      String what =
          String.format(
              "%s %s into %d tables: read %s; expected %s; %d tables wrong%s",
              name,
              workload.mode().id(),
              workload.tables(),
              read.describe(),
              expected.digest().describe(),
              wrongTables.size(),
              wrongTables.isEmpty() ? "" : ", e.g. " + wrongTables.get(0));
      if (name.equals(DeltaDynamicContender.NAME)
          || name.equals(DeltaDynamicContender.CATALOG_NAME)) {
        throw new IllegalStateException(what);
      }
      System.err.println("NOT EXACT: " + what);
    }
  }

  /**
   * A thread that, after {@code seconds}, records the read as not finished in the result file and
   * ends the JVM; interrupt it when the read finishes.
   */
  private static Thread limit(long seconds, Figures figures, Path result) {
    Thread limit =
        new Thread(
            () -> {
              try {
                Thread.sleep(seconds * 1_000);
                synchronized (figures) {
                  figures.put("read_not_finished_within_s", seconds).write(result);
                }
                System.err.println("The read did not finish within " + seconds + " s");
                Runtime.getRuntime().halt(0);
              } catch (InterruptedException e) {
                // the read finished
              } catch (IOException e) {
                e.printStackTrace();
                Runtime.getRuntime().halt(1);
              }
            },
            "read-limit");
    limit.setDaemon(true);
    limit.start();
    return limit;
  }
}
