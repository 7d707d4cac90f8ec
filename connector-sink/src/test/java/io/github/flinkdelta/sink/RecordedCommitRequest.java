/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.connector.sink2.Committer;

/** A commit request that records what the committer signalled about it. */
public final class RecordedCommitRequest<C> implements Committer.CommitRequest<C> {

  private final C committable;
  private final List<String> signals = new ArrayList<>();

  public RecordedCommitRequest(C committable) {
    this.committable = committable;
  }

  /** What the committer signalled, in order; empty when the commit went through. */
  public List<String> signals() {
    return signals;
  }

  @Override
  public C getCommittable() {
    return committable;
  }

  @Override
  public int getNumberOfRetries() {
    return 0;
  }

  @Override
  public void signalFailedWithKnownReason(Throwable t) {
    signals.add("failed with known reason: " + t.getMessage());
  }

  @Override
  public void signalFailedWithUnknownReason(Throwable t) {
    signals.add("failed with unknown reason: " + t.getMessage());
  }

  @Override
  public void retryLater() {
    signals.add("retry later");
  }

  @Override
  public void updateAndRetryLater(C committable) {
    signals.add("update and retry later");
  }

  @Override
  public void signalAlreadyCommitted() {
    signals.add("already committed");
  }
}
