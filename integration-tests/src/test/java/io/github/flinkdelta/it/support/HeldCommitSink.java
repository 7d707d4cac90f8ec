/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.support;

import io.github.flinkdelta.sink.DeltaSink;
import io.github.flinkdelta.sink.committer.DeltaCommittable;
import io.github.flinkdelta.sink.writer.DeltaWriteResult;
import java.io.IOException;
import java.io.Serializable;
import java.util.Collection;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.api.connector.sink2.CommitterInitContext;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.SupportsCommitter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.SupportsPreCommitTopology;
import org.apache.flink.streaming.api.connector.sink2.SupportsPreWriteTopology;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.table.data.RowData;
import org.apache.flink.testutils.junit.SharedObjectsExtension;
import org.apache.flink.testutils.junit.SharedReference;

/**
 * A {@link DeltaSink} whose committer holds back the commit of the first checkpoint from {@code
 * fromCheckpoint} on that has files, until the test releases it. Flink has completed that
 * checkpoint, so the job goes on: the next checkpoint starts, and its barrier passes the writers,
 * which hand over the next checkpoint's files and deletes while the held one is not yet in the
 * table. {@link Hold#handedOverAfterHeld} tells when that happened (a write result left the sink's
 * pre-write topology, such as an upsert sink's keyed writer, ahead of a later checkpoint's
 * barrier), so the test releases the commit at a point it knows, without timing.
 */
public final class HeldCommitSink extends SinkCompat<RowData>
    implements SupportsCommitter<DeltaCommittable>,
        SupportsPreWriteTopology<RowData>,
        SupportsPreCommitTopology<DeltaWriteResult, DeltaCommittable> {

  private static final long serialVersionUID = 1L;

  private final DeltaSink delegate;
  private final Hold hold;
  private final long fromCheckpoint;
  private final boolean rewritesOnly;

  public HeldCommitSink(DeltaSink delegate, Hold hold, long fromCheckpoint) {
    this(delegate, hold, fromCheckpoint, false);
  }

  /**
   * @param rewritesOnly whether the commit held is the first one that carries a compaction of an
   *     upsert sink's writers, rather than the first with files
   */
  public HeldCommitSink(DeltaSink delegate, Hold hold, long fromCheckpoint, boolean rewritesOnly) {
    this.delegate = delegate;
    this.hold = hold;
    this.fromCheckpoint = fromCheckpoint;
    this.rewritesOnly = rewritesOnly;
  }

  /**
   * The hold of one test: which checkpoint's commit it holds once it does, the hand-overs counted,
   * and the release. It lives as long as the test of its {@link SharedObjectsExtension}.
   */
  public static final class Hold implements Serializable {
    private static final long serialVersionUID = 1L;

    private final SharedReference<CompletableFuture<Long>> held;
    private final SharedReference<CompletableFuture<Void>> released;
    private final SharedReference<AtomicLong> lastHandOver;

    private Hold(SharedObjectsExtension shared) {
      this.held = shared.add(new CompletableFuture<>());
      this.released = shared.add(new CompletableFuture<>());
      this.lastHandOver = shared.add(new AtomicLong(-1));
    }

    public static Hold in(SharedObjectsExtension shared) {
      return new Hold(shared);
    }

    /** Whether a commit is held (or was, and has been released). */
    public boolean holding() {
      return held.get().isDone();
    }

    /** The checkpoint whose commit is held; only once {@link #holding()}. */
    public long heldCheckpoint() {
      return held.get().join();
    }

    /**
     * Whether a writer handed over a write result for a checkpoint after the held one: its files
     * and deletes are on their way while the held checkpoint is not committed.
     */
    public boolean handedOverAfterHeld() {
      return holding() && lastHandOver.get().get() > heldCheckpoint();
    }

    /** Lets the held commit go on. */
    public void release() {
      released.get().complete(null);
    }
  }

  @Override
  public DataStream<RowData> addPreWriteTopology(DataStream<RowData> rows) {
    DataStream<RowData> written = delegate.addPreWriteTopology(rows);
    return written
        .map(new HandOverProbe(hold))
        // The type the sink's own topology hands its writer, with that type's serializer.
        .returns(written.getType())
        .name("hand-over probe");
  }

  /**
   * Chained right after the pre-write topology's last operator: a checkpoint's write results pass
   * it before the checkpoint's barrier, which is when it records the checkpoint as handed over.
   */
  private static final class HandOverProbe
      implements MapFunction<RowData, RowData>, CheckpointedFunction {
    private static final long serialVersionUID = 1L;

    private final Hold hold;
    private transient long sinceBarrier;

    HandOverProbe(Hold hold) {
      this.hold = hold;
    }

    @Override
    public RowData map(RowData row) {
      sinceBarrier++;
      return row;
    }

    @Override
    public void snapshotState(FunctionSnapshotContext context) {
      if (sinceBarrier > 0) {
        hold.lastHandOver.get().accumulateAndGet(context.getCheckpointId(), Math::max);
      }
      sinceBarrier = 0;
    }

    @Override
    public void initializeState(FunctionInitializationContext context) {}
  }

  @Override
  public SinkWriter<RowData> createWriter(WriterInitContext context) throws IOException {
    return delegate.createWriter(context);
  }

  @Override
  public Committer<DeltaCommittable> createCommitter(CommitterInitContext context)
      throws IOException {
    Committer<DeltaCommittable> committer = delegate.createCommitter(context);
    return new Committer<>() {
      @Override
      public void commit(Collection<CommitRequest<DeltaCommittable>> requests)
          throws IOException, InterruptedException {
        for (CommitRequest<DeltaCommittable> request : requests) {
          DeltaCommittable committable = request.getCommittable();
          boolean selected =
              rewritesOnly
                  ? !committable.deletes().rewrites().isEmpty()
                  : !committable.files().isEmpty();
          if (!hold.holding() && committable.checkpointId() >= fromCheckpoint && selected) {
            hold.held.get().complete(committable.checkpointId());
            hold.released.get().join();
          }
        }
        committer.commit(requests);
      }

      @Override
      public void close() throws Exception {
        committer.close();
      }
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
