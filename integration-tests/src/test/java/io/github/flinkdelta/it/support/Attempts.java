/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.support;

import java.io.Serializable;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.table.data.RowData;
import org.apache.flink.testutils.junit.SharedObjectsExtension;
import org.apache.flink.testutils.junit.SharedReference;

/**
 * Records the attempt number of each start of the task it is chained into: a job that restarted
 * after a failure shows attempts after 0. It lives as long as the current test of its {@link
 * SharedObjectsExtension}, like {@link FaultCounter}.
 */
public final class Attempts implements Serializable {

  private static final long serialVersionUID = 1L;

  private final SharedReference<ConcurrentLinkedQueue<Integer>> started;

  private Attempts(SharedObjectsExtension shared) {
    this.started = shared.add(new ConcurrentLinkedQueue<>());
  }

  public static Attempts in(SharedObjectsExtension shared) {
    return new Attempts(shared);
  }

  /** The attempt numbers of the starts so far, in start order. */
  public List<Integer> started() {
    return List.copyOf(started.get());
  }

  /** A pass-through map that records its task's attempt at each start. */
  public RichMapFunction<RowData, RowData> probe() {
    return new Probe(this);
  }

  private static final class Probe extends RichMapFunction<RowData, RowData> {
    private static final long serialVersionUID = 1L;

    private final Attempts attempts;

    Probe(Attempts attempts) {
      this.attempts = attempts;
    }

    @Override
    public void open(OpenContext context) {
      attempts.started.get().add(getRuntimeContext().getTaskInfo().getAttemptNumber());
    }

    @Override
    public RowData map(RowData row) {
      return row;
    }
  }
}
