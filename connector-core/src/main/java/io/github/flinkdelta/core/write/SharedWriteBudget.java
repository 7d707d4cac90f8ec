/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.write;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.flink.annotation.Internal;
import org.apache.hadoop.conf.Configuration;

/**
 * One memory budget for the writers of many tables in one writer subtask. Once their open files and
 * held rows together exceed it, the writers holding the most complete their largest partitions
 * first, until the budget has shrunk enough; a writer with little memory keeps its files open
 * however many tables there are. Completed files are never dropped: each writer hands them on at
 * its next {@link PartitionedDataWriter#flush()}.
 *
 * <p>One thread owns the budget and its writers, as with a writer's own budget.
 */
@Internal
public final class SharedWriteBudget {

  private final MemoryBudget budget;
  private final Set<PartitionedDataWriter> writers = new LinkedHashSet<>();

  public SharedWriteBudget(long limitBytes) {
    this.budget = new MemoryBudget(limitBytes);
  }

  /**
   * A writer whose open files and held rows count against this budget.
   *
   * @param options how its files are written and rolled; their own budget is not used
   * @see PartitionedDataWriter#PartitionedDataWriter(FileLayout, Configuration, String,
   *     FileWriteOptions, String, boolean)
   */
  public PartitionedDataWriter newWriter(
      FileLayout layout,
      Configuration conf,
      String tableRoot,
      FileWriteOptions options,
      String filePrefix,
      boolean holdRows) {
    PartitionedDataWriter writer =
        new PartitionedDataWriter(layout, conf, tableRoot, options, filePrefix, holdRows, this);
    writers.add(writer);
    return writer;
  }

  /** The bytes every writer holds together; safe to read from any thread. */
  public long usedBytes() {
    return budget.usedBytes();
  }

  /** The number of writers open against the budget. */
  public int writerCount() {
    return writers.size();
  }

  MemoryBudget budget() {
    return budget;
  }

  void closed(PartitionedDataWriter writer) {
    writers.remove(writer);
  }

  /** Completes files of the writers that hold the most until the budget has shrunk enough. */
  void shrink() throws IOException {
    record Holder(long bytes, PartitionedDataWriter writer) {}
    List<Holder> holders = new ArrayList<>(writers.size());
    for (PartitionedDataWriter writer : writers) {
      holders.add(new Holder(writer.heldBytes(), writer));
    }
    holders.sort(Comparator.comparingLong(Holder::bytes).reversed());
    for (Holder holder : holders) {
      if (budget.shrunkEnough()) {
        return;
      }
      holder.writer().shrink();
    }
  }
}
