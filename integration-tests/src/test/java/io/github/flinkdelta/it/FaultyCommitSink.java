package io.github.flinkdelta.it;

import io.github.flinkdelta.sink.DeltaCommittable;
import io.github.flinkdelta.sink.DeltaSink;
import io.github.flinkdelta.sink.DeltaWriteResult;
import java.io.IOException;
import java.util.Collection;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.api.connector.sink2.CommitterInitContext;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.SupportsCommitter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.SupportsPreCommitTopology;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.table.data.RowData;

/**
 * A {@link DeltaSink} whose committer fails in its first attempts, either before the Delta commit
 * (the checkpoint completed, the commit never happened) or right after it (the commit landed, but
 * Flink sees a failure and must not commit it twice).
 */
final class FaultyCommitSink extends SinkCompat<RowData>
    implements SupportsCommitter<DeltaCommittable>,
        SupportsPreCommitTopology<DeltaWriteResult, DeltaCommittable> {

  enum When {
    BEFORE_COMMIT,
    AFTER_COMMIT,
    /** As {@link #BEFORE_COMMIT}, for the first checkpoints that hold files, not empty ones. */
    BEFORE_COMMITTING_FILES
  }

  private final DeltaSink delegate;
  private final FaultCounter injected;
  private final When when;
  private final int failingAttempts;
  private final long fromCheckpoint;

  FaultyCommitSink(
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
        boolean fail =
            faulty
                && requests.stream()
                    .anyMatch(
                        r ->
                            r.getCommittable().checkpointId() >= fromCheckpoint
                                && (when != When.BEFORE_COMMITTING_FILES
                                    || !r.getCommittable().files().isEmpty()));
        if (fail && when != When.AFTER_COMMIT) {
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
