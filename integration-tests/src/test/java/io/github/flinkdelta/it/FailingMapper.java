package io.github.flinkdelta.it;

import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.table.data.RowData;

/**
 * Passes rows through, and throws after {@code afterRecords} rows in each of the first {@code
 * failures} attempts of the task, counting each into {@code injected}: every restart replays from
 * the last completed checkpoint.
 */
final class FailingMapper extends RichMapFunction<RowData, RowData> {

  private final FaultCounter injected;
  private final int failures;
  private final long afterRecords;
  private long seen;

  FailingMapper(FaultCounter injected, int failures, long afterRecords) {
    this.injected = injected;
    this.failures = failures;
    this.afterRecords = afterRecords;
  }

  @Override
  public RowData map(RowData row) {
    if (getRuntimeContext().getTaskInfo().getAttemptNumber() < failures && ++seen >= afterRecords) {
      injected.fire();
      throw new IllegalStateException("Injected failure after " + afterRecords + " rows");
    }
    return row;
  }
}
