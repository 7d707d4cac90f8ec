/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.source;

import io.delta.kernel.defaults.engine.DefaultEngine;
import io.github.flinkdelta.core.catalog.TableHistory;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.util.FlinkRuntimeException;
import org.apache.hadoop.conf.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Plans splits, one per data file of a version, and hands them to readers as they ask, oldest
 * version first. It alone talks to the table's history: a continuous read asks for the latest
 * version once per poll interval for the whole job.
 *
 * <p>Planning runs on the coordinator's worker thread and its result is applied on the coordinator
 * thread; a plan made from a version the enumerator has since moved past is dropped, so a slow poll
 * overlapping the next one plans nothing twice. The checkpointed state is the next version to plan
 * and the splits planned but not yet assigned; splits assigned after the last checkpoint come back
 * through {@link #addSplitsBack} when their reader fails.
 */
@Internal
final class DeltaSplitEnumerator implements SplitEnumerator<DeltaSplit, DeltaEnumeratorState> {

  private static final Logger LOG = LoggerFactory.getLogger(DeltaSplitEnumerator.class);

  private final SplitEnumeratorContext<DeltaSplit> context;
  private final DeltaSourceConfig config;
  private final PendingSplits pending;
  private final Set<Integer> waiting = new LinkedHashSet<>();
  private final TableHistory history;
  private final VersionPlanner planner;

  /** The one reader of a changelog read. */
  private static final int CHANGELOG_READER = 0;

  private final boolean changelog;

  private volatile long nextVersion;

  /** Polls that failed since the last that did not, counted on the coordinator thread. */
  private int failedPolls;

  DeltaSplitEnumerator(
      SplitEnumeratorContext<DeltaSplit> context,
      DeltaSourceConfig config,
      DeltaEnumeratorState state) {
    this.context = context;
    this.config = config;
    this.changelog =
        !config.bounded() && config.changeCommits() == DeltaSourceOptions.ChangeCommits.CHANGELOG;
    this.nextVersion = state.nextVersion();
    this.pending =
        config.watermark() == null
            ? PendingSplits.inPlanOrder(state.pending())
            : PendingSplits.byTimestamp(state.pending());
    Configuration conf = config.readConf();
    this.history = config.table().history(conf);
    this.planner = new VersionPlanner(config, history, DefaultEngine.create(conf));
  }

  @Override
  public void start() {
    if (config.bounded()) {
      if (nextVersion < 0) {
        context.callAsync(planner::start, this::apply);
      }
    } else {
      context.callAsync(this::plan, this::apply, 0, config.pollInterval().toMillis());
    }
  }

  /** The next plan, on the worker thread; nothing while readers are behind. */
  private VersionPlanner.Plan plan() {
    long from = nextVersion;
    if (from < 0) {
      return planner.start();
    }
    if (pending.size() >= config.maxFilesPerPoll()) {
      return new VersionPlanner.Plan(from, from, List.of());
    }
    return planner.next(from);
  }

  private void apply(VersionPlanner.Plan plan, Throwable error) {
    if (error != null) {
      int allowed = config.maxPlanningFailures();
      if (!config.bounded() && (allowed < 0 || failedPolls < allowed)) {
        failedPolls++;
        LOG.warn(
            "Poll {} in a row of Delta table {} failed; trying again in {}",
            failedPolls,
            config.tableName(),
            config.pollInterval(),
            error);
        return;
      }
      throw new FlinkRuntimeException(
          String.format(
              "The Delta source of %s cannot plan its reads (%d polls in a row failed; '%s' allows"
                  + " %d)",
              config.tableName(),
              failedPolls + 1,
              DeltaSourceOptions.MAX_PLANNING_FAILURES.key(),
              allowed),
          error);
    }
    failedPolls = 0;
    if (plan.from() != nextVersion) {
      return;
    }
    if (!plan.splits().isEmpty()) {
      LOG.info(
          "Planned {} data files of Delta table {} up to version {}",
          plan.splits().size(),
          config.tableName(),
          plan.next() - 1);
    }
    pending.addAll(plan.splits());
    nextVersion = plan.next();
    assign();
  }

  @Override
  public void handleSplitRequest(int subtask, String requesterHostname) {
    waiting.add(subtask);
    assign();
  }

  @Override
  public void addSplitsBack(List<DeltaSplit> splits, int subtask) {
    pending.addBack(splits);
    assign();
  }

  @Override
  public void addReader(int subtask) {
    // Readers ask for splits when they have none.
  }

  private void assign() {
    Iterator<Integer> readers = waiting.iterator();
    while (readers.hasNext()) {
      int subtask = readers.next();
      if (!context.registeredReaders().containsKey(subtask)) {
        readers.remove();
        continue;
      }
      if (changelog && subtask != CHANGELOG_READER) {
        // One reader emits a changelog, one split after another: a key's delete in one version
        // and its insert in the next, or in the version's own inserts, stay in order downstream.
        continue;
      }
      DeltaSplit split = pending.poll();
      if (split != null) {
        context.assignSplit(split, subtask);
        readers.remove();
      } else if (config.bounded() && nextVersion >= 0) {
        context.signalNoMoreSplits(subtask);
        readers.remove();
      } else {
        return;
      }
    }
  }

  @Override
  public DeltaEnumeratorState snapshotState(long checkpointId) {
    return new DeltaEnumeratorState(nextVersion, pending.inOrder());
  }

  @Override
  public void close() {
    history.close();
  }
}
