/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.chaos;

import io.github.flinkdelta.it.support.CatalogReads;
import io.github.flinkdelta.it.support.CatalogStatements;
import io.github.flinkdelta.it.support.Changelog;
import io.github.flinkdelta.it.support.ForeignStatements;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The chaos suite's foreign-statement fault: another writer of the upsert table, committing through
 * the catalog ({@link CatalogStatements}), runs {@code DELETE}, {@code UPDATE} and {@code OPTIMIZE}
 * while the job writes under the other faults, in an order drawn from the run's seed, spread over
 * the run.
 *
 * <p>Each statement names rows by the change that wrote them, below a stop every change before
 * which the table already holds: one more than the highest change of any row the table holds then
 * (the job commits its checkpoints in order, and a checkpoint holds every change before its
 * barrier). The table after the run then equals the changelog replayed with each statement applied
 * at its stop ({@link #expected}).
 */
final class ChaosForeignWriter implements AutoCloseable {

  /** The statements a run draws from: those whose effect a stop makes exact. */
  private static final List<ForeignStatements> KINDS =
      List.of(ForeignStatements.DELETE, ForeignStatements.UPDATE, ForeignStatements.OPTIMIZE);

  /** One statement run: what, for which stop, and the version it committed. */
  record Ran(ForeignStatements statement, long stop, long version) {}

  /** A statement of the plan, run once the table holds the first {@code afterChanges} changes. */
  record Planned(ForeignStatements statement, long afterChanges) {}

  private final List<Planned> plan;
  private final UnityCatalogConnection connection;
  private final String table;
  private final Map<String, String> storageOptions;
  private final List<Ran> ran = new CopyOnWriteArrayList<>();
  private final Thread thread;
  private volatile Throwable failure;

  private ChaosForeignWriter(
      List<Planned> plan,
      UnityCatalogConnection connection,
      String table,
      Map<String, String> storageOptions) {
    this.plan = plan;
    this.connection = connection;
    this.table = table;
    this.storageOptions = storageOptions;
    this.thread = new Thread(this::runPlan, "chaos-foreign-writer");
    thread.setDaemon(true);
  }

  /**
   * The plan of {@code seed} for a run of {@code changes} changes: every kind once, in an order of
   * its own, spread over the run (around a fifth, two fifths and three fifths of the changes), so
   * that each meets the job at work however fast the machine is.
   */
  static List<Planned> plan(long seed, long changes) {
    Random random = new Random(seed ^ 0x5eed_f0e1_9e11L);
    List<ForeignStatements> order = new ArrayList<>(KINDS);
    Collections.shuffle(order, random);
    List<Planned> plan = new ArrayList<>();
    for (int i = 0; i < order.size(); i++) {
      long at = changes * (i + 1) / (order.size() + 2);
      plan.add(new Planned(order.get(i), at + random.nextLong(changes / 10) - changes / 20));
    }
    return List.copyOf(plan);
  }

  /** Starts running the plan of {@code seed} for a run of {@code changes} on {@code table}. */
  static ChaosForeignWriter start(
      long seed,
      long changes,
      UnityCatalogConnection connection,
      String table,
      Map<String, String> storageOptions) {
    ChaosForeignWriter writer =
        new ChaosForeignWriter(plan(seed, changes), connection, table, storageOptions);
    writer.thread.start();
    return writer;
  }

  private void runPlan() {
    CatalogStatements statements = new CatalogStatements(connection, table, storageOptions);
    long stop = 0;
    try {
      for (Planned planned : plan) {
        stop = Math.max(stop, committedPrefix());
        while (stop < planned.afterChanges()) {
          Thread.sleep(1_000);
          stop = Math.max(stop, committedPrefix());
        }
        ran.add(new Ran(planned.statement(), stop, statements.run(planned.statement(), stop)));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Throwable t) {
      failure = t;
    }
  }

  /** One more than the highest change of a row the table holds: every change below it is held. */
  private long committedPrefix() throws InterruptedException {
    RuntimeException last = null;
    for (int attempt = 0; attempt < 30; attempt++) {
      try {
        return CatalogReads.read(connection, table, storageOptions).rows().stream()
                .mapToLong(ForeignStatements::version)
                .max()
                .orElse(-1)
            + 1;
      } catch (RuntimeException e) {
        // The run's S3 and catalog faults hit this reader too.
        last = e;
        Thread.sleep(100);
      }
    }
    throw new IllegalStateException("could not read " + table + " for a statement's stop", last);
  }

  /**
   * Waits for the plan to end and returns the statements run, in order.
   *
   * @throws AssertionError when a statement could not run
   */
  List<Ran> finish() throws InterruptedException {
    thread.join();
    if (failure != null) {
      throw new AssertionError("the foreign writer of " + table + " failed", failure);
    }
    return List.copyOf(ran);
  }

  /** The rows {@code changes} changes of {@code changelog} and the statements {@code ran} leave. */
  static Map<Long, List<Object>> expected(Changelog changelog, long changes, List<Ran> ran) {
    Map<Long, List<Object>> rows = Map.of();
    long from = 0;
    for (Ran statement : ran) {
      rows = changelog.expected(rows, from, statement.stop());
      rows = statement.statement().apply(rows, statement.stop());
      from = statement.stop();
    }
    return changelog.expected(rows, from, changes);
  }

  @Override
  public void close() throws InterruptedException {
    thread.interrupt();
    thread.join();
  }
}
