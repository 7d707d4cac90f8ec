/*
 * Copyright 2026 the flink-delta authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package io.github.flinkdelta.sink;

import io.github.flinkdelta.sink.committer.DeltaCommittable;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.connector.sink2.Committer;

/** A commit request that records what the committer signalled about it. */
public final class RecordedCommitRequest implements Committer.CommitRequest<DeltaCommittable> {

  private final DeltaCommittable committable;
  private final List<String> signals = new ArrayList<>();

  public RecordedCommitRequest(DeltaCommittable committable) {
    this.committable = committable;
  }

  /** What the committer signalled, in order; empty when the commit went through. */
  public List<String> signals() {
    return signals;
  }

  @Override
  public DeltaCommittable getCommittable() {
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
  public void updateAndRetryLater(DeltaCommittable committable) {
    signals.add("update and retry later");
  }

  @Override
  public void signalAlreadyCommitted() {
    signals.add("already committed");
  }
}
