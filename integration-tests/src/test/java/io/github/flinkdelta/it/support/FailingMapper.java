/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.support;

import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.table.data.RowData;

/**
 * Passes rows through, and throws after {@code afterRecords} rows in each of the first {@code
 * failures} attempts of the task, counting each into {@code injected}: every restart replays from
 * the last completed checkpoint. {@link #untilFired} counts the failures that fired instead of the
 * attempts, for jobs that also restart for other reasons.
 */
public final class FailingMapper extends RichMapFunction<RowData, RowData> {

  private final FaultCounter injected;
  private final int failures;
  private final long afterRecords;
  private final boolean untilFired;
  private long seen;

  public FailingMapper(FaultCounter injected, int failures, long afterRecords) {
    this(injected, failures, afterRecords, false);
  }

  private FailingMapper(
      FaultCounter injected, int failures, long afterRecords, boolean untilFired) {
    this.injected = injected;
    this.failures = failures;
    this.afterRecords = afterRecords;
    this.untilFired = untilFired;
  }

  /** Throws after {@code afterRecords} rows of an attempt until {@code failures} have fired. */
  public static FailingMapper untilFired(FaultCounter injected, int failures, long afterRecords) {
    return new FailingMapper(injected, failures, afterRecords, true);
  }

  @Override
  public RowData map(RowData row) {
    long done =
        untilFired ? injected.count() : getRuntimeContext().getTaskInfo().getAttemptNumber();
    if (done < failures && ++seen >= afterRecords) {
      injected.fire();
      throw new IllegalStateException("Injected failure after " + afterRecords + " rows");
    }
    return row;
  }
}
