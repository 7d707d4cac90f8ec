/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.dynamic;

import java.io.Serializable;
import java.util.List;
import org.apache.flink.annotation.PublicEvolving;

/**
 * Turns the elements of a stream into {@link DynamicRecord}s, each naming its table, and into the
 * {@link TableChange}s that sources of change data carry. It runs in the sink's writers, one
 * instance per subtask, on the task thread.
 *
 * @param <T> the type of the stream's elements
 */
@PublicEvolving
@FunctionalInterface
public interface DynamicRecordGenerator<T> extends Serializable {

  /** Hands on what {@code element} means for the tables: any number of records and changes. */
  void generate(T element, Output out) throws Exception;

  /**
   * A generator that carries what it learnt from earlier elements across a restore, e.g. the
   * schemas of its tables when later elements name them without: the sink keeps it in its
   * checkpoints.
   */
  @PublicEvolving
  interface Checkpointed {

    /** What this subtask's generator holds now; taken at each checkpoint. */
    byte[] snapshot() throws Exception;

    /**
     * Restores what the generators of all subtasks held at the checkpoint restored, in no order,
     * before the first element; also after a rescale. Called only when the job is restored. A
     * subtask's snapshot may hold what another subtask has since learnt better: the generator
     * decides which to keep.
     */
    void restore(List<byte[]> snapshots) throws Exception;
  }

  /** Where a generator hands on records and changes, which the sink applies in this order. */
  interface Output {

    /** Writes {@code record} to its table. */
    void collect(DynamicRecord record) throws Exception;

    /** Applies {@code change} to its table, after the records handed on before it. */
    void apply(TableChange change) throws Exception;
  }
}
