/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.support;

import io.github.flinkdelta.core.write.FileIds;
import io.github.flinkdelta.sink.DeltaSink;
import io.github.flinkdelta.sink.committer.DeltaCommittable;
import io.github.flinkdelta.sink.writer.DeltaWriteResult;
import java.io.IOException;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.api.connector.sink2.CommitterInitContext;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.SupportsCommitter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.SupportsPreCommitTopology;
import org.apache.flink.streaming.api.connector.sink2.SupportsPreWriteTopology;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.table.data.RowData;

/**
 * A {@link DeltaSink} whose committer fails in its first attempts, either before the Delta commit
 * (the checkpoint completed, the commit never happened) or right after it (the commit landed, but
 * Flink sees a failure and must not commit it twice).
 *
 * <p>An upsert sink's commits can be chosen by their deletes: those that delete rows of files
 * committed before them, that is rows of an earlier checkpoint, which the restarted job's replay of
 * the committable must delete again exactly.
 */
public final class FaultyCommitSink extends SinkCompat<RowData>
    implements SupportsCommitter<DeltaCommittable>,
        SupportsPreWriteTopology<RowData>,
        SupportsPreCommitTopology<DeltaWriteResult, DeltaCommittable> {

  public enum When {
    BEFORE_COMMIT,
    AFTER_COMMIT,
    /** As {@link #BEFORE_COMMIT}, for the first checkpoints that hold files, not empty ones. */
    BEFORE_COMMITTING_FILES,
    /** As {@link #BEFORE_COMMIT}, for the first checkpoints that delete rows of earlier ones. */
    BEFORE_DELETING_COMMITTED_ROWS,
    /** As {@link #AFTER_COMMIT}, for the first checkpoints that delete rows of earlier ones. */
    AFTER_DELETING_COMMITTED_ROWS,
    /**
     * As {@link #BEFORE_COMMIT}, once, in whichever attempt, for the first checkpoint that commits
     * a writer's compaction.
     */
    BEFORE_COMMITTING_REWRITE,
    /**
     * As {@link #AFTER_COMMIT}, once, for the first checkpoint that commits a writer's compaction.
     */
    AFTER_COMMITTING_REWRITE
  }

  private final DeltaSink delegate;
  private final FaultCounter injected;
  private final When when;
  private final int failingAttempts;
  private final long fromCheckpoint;

  public FaultyCommitSink(
      DeltaSink delegate,
      FaultCounter injected,
      When when,
      int failingAttempts,
      long fromCheckpoint) {
    this.delegate = delegate;
    this.injected = injected;
    this.when = when;
    this.failingAttempts = failingAttempts;
    this.fromCheckpoint = fromCheckpoint;
  }

  /** The sink's own: an upsert sink's keyed writer, or the rows as they are. */
  @Override
  public DataStream<RowData> addPreWriteTopology(DataStream<RowData> rows) {
    return delegate.addPreWriteTopology(rows);
  }

  @Override
  public SinkWriter<RowData> createWriter(WriterInitContext context) throws IOException {
    return delegate.createWriter(context);
  }

  @Override
  public Committer<DeltaCommittable> createCommitter(CommitterInitContext context)
      throws IOException {
    Committer<DeltaCommittable> committer = delegate.createCommitter(context);
    boolean faulty = context.getTaskInfo().getAttemptNumber() < failingAttempts;
    return new Committer<>() {
      @Override
      public void commit(Collection<CommitRequest<DeltaCommittable>> requests)
          throws IOException, InterruptedException {
        boolean fail = faulty && requests.stream().anyMatch(r -> selected(r.getCommittable()));
        boolean before =
            when != When.AFTER_COMMIT
                && when != When.AFTER_DELETING_COMMITTED_ROWS
                && when != When.AFTER_COMMITTING_REWRITE;
        if (fail && before) {
          injected.fire();
          throw new IllegalStateException("Injected failure before the Delta commit");
        }
        committer.commit(requests);
        if (fail) {
          injected.fire();
          throw new IllegalStateException("Injected failure after the Delta commit");
        }
      }

      @Override
      public void close() throws Exception {
        committer.close();
      }
    };
  }

  private boolean selected(DeltaCommittable committable) {
    if (committable.checkpointId() < fromCheckpoint) {
      return false;
    }
    return switch (when) {
      case BEFORE_COMMIT, AFTER_COMMIT -> true;
      case BEFORE_COMMITTING_FILES -> !committable.files().isEmpty();
      case BEFORE_DELETING_COMMITTED_ROWS, AFTER_DELETING_COMMITTED_ROWS -> {
        Set<Long> own = new HashSet<>();
        committable.files().forEach(file -> own.add(FileIds.of(file.path())));
        yield committable.deletes().byFile().keySet().stream().anyMatch(id -> !own.contains(id));
      }
      case BEFORE_COMMITTING_REWRITE, AFTER_COMMITTING_REWRITE ->
          injected.count() == 0 && !committable.deletes().rewrites().isEmpty();
    };
  }

  @Override
  public SimpleVersionedSerializer<DeltaCommittable> getCommittableSerializer() {
    return delegate.getCommittableSerializer();
  }

  @Override
  public DataStream<CommittableMessage<DeltaCommittable>> addPreCommitTopology(
      DataStream<CommittableMessage<DeltaWriteResult>> results) {
    return delegate.addPreCommitTopology(results);
  }

  @Override
  public SimpleVersionedSerializer<DeltaWriteResult> getWriteResultSerializer() {
    return delegate.getWriteResultSerializer();
  }
}
