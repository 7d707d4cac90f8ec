package io.github.flinkdelta.it;

import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.table.data.RowData;

/**
 * Passes rows through, and throws after {@code afterRecords} rows in each of the first {@code
 * failures} attempts of the task: every restart replays from the last completed checkpoint.
 */
final class FailingMapper extends RichMapFunction<RowData, RowData> {

  /** Failures thrown so far in this JVM (the MiniCluster runs in the test's JVM). */
  static final java.util.concurrent.atomic.AtomicInteger INJECTED =
      new java.util.concurrent.atomic.AtomicInteger();

  private final int failures;
  private final long afterRecords;
  private long seen;

  FailingMapper(int failures, long afterRecords) {
    this.failures = failures;
    this.afterRecords = afterRecords;
  }

  @Override
  public RowData map(RowData row) {
    if (getRuntimeContext().getTaskInfo().getAttemptNumber() < failures && ++seen >= afterRecords) {
      INJECTED.incrementAndGet();
      throw new IllegalStateException("Injected failure after " + afterRecords + " rows");
    }
    return row;
  }
}
