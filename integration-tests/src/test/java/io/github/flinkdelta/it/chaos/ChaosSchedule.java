/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.chaos;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * A chaos run's plan, drawn from its seed before the run starts: how many rows the job sends, and
 * the faults the injector arms, each after a pause, with its parameters. The same seed always gives
 * the same plan, which is what {@code -Dchaos.seed} replays.
 *
 * <p>{@link #certain()} names the kinds a plan fires whatever the machine's speed, which is how
 * CI's fixed seeds were chosen ({@link #main} searches for them).
 */
record ChaosSchedule(long seed, long rows, List<ChaosSchedule.Planned> faults) {

  static final int MAX_FAULTS = 8;

  /** The job's generator sends this many rows per second, never faster. */
  static final int ROWS_PER_SECOND = 400;

  /**
   * A fault armed this long before the generator could possibly have sent its last row still meets
   * a running job: more than a thousand rows to send, several checkpoints with their S3 uploads,
   * catalog commits and credential renewals.
   */
  private static final long MARGIN_MILLIS = 3_000;

  enum Fault {
    WRITER_FAILS_MID_FILE,
    S3_CONNECTION_RESETS,
    S3_SLOW_DOWN,
    CATALOG_COMMIT_FAILS,
    CATALOG_RESPONSE_LOST,
    CATALOG_CREDENTIALS_FAIL,
    TASK_MANAGER_LOST
  }

  /**
   * One fault: armed {@code pauseMillis} after the previous one (or the job's start); {@code burst}
   * requests or calls hit, a catalog failure answered with {@code status}, a TaskManager lost
   * chosen by {@code victim} among the two running.
   */
  record Planned(Fault fault, int pauseMillis, int burst, int status, int victim) {}

  static ChaosSchedule of(long seed) {
    Random random = new Random(seed);
    long rows = 3_000 + random.nextInt(2_000);
    List<Planned> faults = new ArrayList<>();
    for (int i = 0; i < MAX_FAULTS; i++) {
      int pause = 300 + random.nextInt(900);
      Fault fault = Fault.values()[random.nextInt(Fault.values().length)];
      int burst = 1 + random.nextInt(fault == Fault.CATALOG_COMMIT_FAILS ? 4 : 6);
      int status = new int[] {429, 500, 503}[random.nextInt(3)];
      faults.add(new Planned(fault, pause, burst, status, random.nextInt(2)));
    }
    return new ChaosSchedule(seed, rows, List.copyOf(faults));
  }

  /**
   * The kinds this plan fires on any machine, fast or busy. A fault counts when it is armed early
   * (its pauses add up to at most the generator's shortest running time, {@code rows / 400} s, less
   * a margin: a busy machine only makes the job slower), before any TaskManager is lost (the
   * injector waits for that loss, so later faults may come late), and when no later fault of the
   * plan replaces it (a new burst on the same requests or endpoint replaces the one armed; writer
   * failures add up instead).
   */
  Set<Fault> certain() {
    Set<Fault> certain = EnumSet.noneOf(Fault.class);
    long budget = rows * 1_000 / ROWS_PER_SECOND - MARGIN_MILLIS;
    long armedAt = 0;
    for (int i = 0; i < faults.size(); i++) {
      Planned planned = faults.get(i);
      armedAt += planned.pauseMillis();
      if (armedAt > budget) {
        break;
      }
      if (planned.fault() == Fault.TASK_MANAGER_LOST) {
        certain.add(Fault.TASK_MANAGER_LOST);
        break;
      }
      if (planned.fault() == Fault.WRITER_FAILS_MID_FILE || !armedAgainAfter(i)) {
        certain.add(planned.fault());
      }
    }
    return certain;
  }

  private boolean armedAgainAfter(int index) {
    Fault fault = faults.get(index).fault();
    return faults.subList(index + 1, faults.size()).stream().anyMatch(p -> p.fault() == fault);
  }

  /**
   * Seed search: prints the first {@code args[1]} (default 5) seeds from {@code args[0]} (default
   * 1) whose plans are certain to fire every kind, with their plans. After a test-compile: {@code
   * java -cp integration-tests/target/test-classes io.github.flinkdelta.it.chaos.ChaosSchedule 1
   * 5}.
   */
  public static void main(String[] args) {
    long seed = args.length > 0 ? Long.parseLong(args[0]) : 1;
    int wanted = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    for (int found = 0; found < wanted; seed++) {
      ChaosSchedule schedule = of(seed);
      if (schedule.certain().size() == Fault.values().length) {
        System.out.println(schedule);
        found++;
      }
    }
  }
}
