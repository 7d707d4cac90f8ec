/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.support;

import java.io.Serializable;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiter;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.table.data.RowData;
import org.apache.flink.testutils.junit.SharedObjectsExtension;
import org.apache.flink.testutils.junit.SharedReference;

/**
 * Holds one phase of a job (one deployment) at a point the test knows: once the phase's completed
 * checkpoints hold {@code threshold} rows between the subtasks, the generator sends nothing more
 * until the test calls {@link #release()}. Rows are counted by the {@link #probe()} right after the
 * generator, as they stand in each completed checkpoint, so rows sent again after a restore count
 * once and the rows of a completed checkpoint are sure to be committed. Until then, each subtask
 * attempt sends at most its share of {@code threshold} rows past the checkpoint it started from, so
 * however slow checkpoints are, a phase sends fewer than {@code 2 * threshold} rows (plus one a
 * subtask) before it holds. Checkpoints go on while the generator holds (the source waits on a
 * future, not in a blocked call).
 *
 * <p>The probe also records, for each subtask attempt that starts, which checkpoint or savepoint it
 * restored ({@link #FRESH} for none), so a test knows a redeployment really restored its savepoint.
 */
public final class PhaseGate implements Serializable {

  private static final long serialVersionUID = 1L;

  /** Recorded for an attempt that restored nothing. */
  public static final long FRESH = -1;

  private final long threshold;
  private final SharedReference<Map<Integer, Long>> atStart;
  private final SharedReference<Map<Integer, Long>> checkpointed;
  private final SharedReference<CompletableFuture<Void>> released;
  private final SharedReference<ConcurrentLinkedQueue<Long>> restored;

  private PhaseGate(SharedObjectsExtension shared, long threshold) {
    this.threshold = threshold;
    this.atStart = shared.add(new ConcurrentHashMap<>());
    this.checkpointed = shared.add(new ConcurrentHashMap<>());
    this.released = shared.add(new CompletableFuture<>());
    this.restored = shared.add(new ConcurrentLinkedQueue<>());
  }

  /** A gate living as long as the current test of {@code shared}. */
  public static PhaseGate in(SharedObjectsExtension shared, long threshold) {
    return new PhaseGate(shared, threshold);
  }

  /** Whether the generator holds its rows: enough of them are checkpointed, and not released. */
  public boolean closed() {
    if (released.get().isDone()) {
      return false;
    }
    long rows = 0;
    for (Map.Entry<Integer, Long> subtask : checkpointed.get().entrySet()) {
      rows += subtask.getValue() - atStart.get().getOrDefault(subtask.getKey(), 0L);
    }
    return rows >= threshold;
  }

  /**
   * The rows the completed checkpoints (and savepoints) of this phase's attempts hold, summed over
   * the subtasks and counted from the job's first start: rows of earlier phases that the phase
   * restored count too. After a stop with a savepoint, the rows the savepoint holds.
   */
  public long checkpointedRows() {
    return checkpointed.get().values().stream().mapToLong(Long::longValue).sum();
  }

  /** Lets the generator send every row it has left. */
  public void release() {
    released.get().complete(null);
  }

  /** The checkpoint id each attempt of this phase restored, or {@link #FRESH}, in start order. */
  public List<Long> restored() {
    return List.copyOf(restored.get());
  }

  /** The generator's rate: {@code rowsPerSecond} across the subtasks while the gate is open. */
  public RateLimiterStrategy rate(double rowsPerSecond) {
    return new Rate(this, rowsPerSecond);
  }

  /** The operator to chain right after the generator. */
  public RichMapFunction<RowData, RowData> probe() {
    return new Probe(this);
  }

  /**
   * Raw types: Flink 1.20's {@code RateLimiter} has no type parameter and 2.x's has one; the
   * generator's reader calls {@code acquire()}, once a row, on both lines.
   */
  @SuppressWarnings("rawtypes")
  private static final class Rate implements RateLimiterStrategy {
    private static final long serialVersionUID = 1L;

    private final PhaseGate gate;
    private final double rowsPerSecond;

    Rate(PhaseGate gate, double rowsPerSecond) {
      this.gate = gate;
      this.rowsPerSecond = rowsPerSecond;
    }

    @Override
    public RateLimiter createRateLimiter(int parallelism) {
      RateLimiter rate =
          RateLimiterStrategy.perSecond(rowsPerSecond).createRateLimiter(parallelism);
      long share = (gate.threshold + parallelism - 1) / parallelism;
      // One limiter per subtask attempt: it counts the rows of its attempt, one acquire a row.
      return new RateLimiter() {
        private long acquired;

        @Override
        public CompletionStage<Void> acquire() {
          if (!gate.released.get().isDone() && (acquired >= share || gate.closed())) {
            return gate.released.get().thenCompose(ignored -> rate.acquire());
          }
          acquired++;
          return rate.acquire();
        }

        /** Flink 2.x's abstract acquire; its generator calls the one without permits. */
        public CompletionStage<Void> acquire(int permits) {
          return acquire();
        }

        @Override
        public void notifyCheckpointComplete(long checkpointId) {
          rate.notifyCheckpointComplete(checkpointId);
        }
      };
    }
  }

  private static final class Probe extends RichMapFunction<RowData, RowData>
      implements CheckpointedFunction, CheckpointListener {
    private static final long serialVersionUID = 1L;

    private final PhaseGate gate;
    private transient ListState<Long> passedState;
    private transient long passed;
    private transient TreeMap<Long, Long> passedAtCheckpoint;

    Probe(PhaseGate gate) {
      this.gate = gate;
    }

    @Override
    public RowData map(RowData row) {
      passed++;
      return row;
    }

    @Override
    public void initializeState(FunctionInitializationContext context) throws Exception {
      passedState =
          context
              .getOperatorStateStore()
              .getListState(new ListStateDescriptor<>("rows-passed", Long.class));
      passed = 0;
      for (Long count : passedState.get()) {
        passed += count;
      }
      passedAtCheckpoint = new TreeMap<>();
      int subtask = getRuntimeContext().getTaskInfo().getIndexOfThisSubtask();
      gate.atStart.get().putIfAbsent(subtask, passed);
      // What it restored is a completed checkpoint too, even one whose notice never came.
      gate.checkpointed.get().merge(subtask, passed, Math::max);
      gate.restored.get().add(context.getRestoredCheckpointId().orElse(FRESH));
    }

    @Override
    public void snapshotState(FunctionSnapshotContext context) throws Exception {
      passedState.update(List.of(passed));
      passedAtCheckpoint.put(context.getCheckpointId(), passed);
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {
      Long rows = passedAtCheckpoint.get(checkpointId);
      passedAtCheckpoint.headMap(checkpointId, true).clear();
      if (rows != null) {
        int subtask = getRuntimeContext().getTaskInfo().getIndexOfThisSubtask();
        gate.checkpointed.get().merge(subtask, rows, Math::max);
      }
    }
  }
}
