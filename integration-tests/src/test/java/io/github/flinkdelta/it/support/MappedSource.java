/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.support;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.util.function.SerializableFunction;

/**
 * A source whose records are another source's, each turned into another type as its reader emits
 * it; everything else (splits, enumerator, state) is the other source's. Flink's source test suite
 * compares records by {@code equals}, which the connector's {@code RowData} rows do not define.
 */
public final class MappedSource<I, O, S extends SourceSplit, E>
    implements Source<O, S, E>, ResultTypeQueryable<O> {

  private final Source<I, S, E> source;
  private final SerializableFunction<I, O> mapping;
  private final TypeInformation<O> type;

  public MappedSource(
      Source<I, S, E> source, SerializableFunction<I, O> mapping, TypeInformation<O> type) {
    this.source = source;
    this.mapping = mapping;
    this.type = type;
  }

  @Override
  public Boundedness getBoundedness() {
    return source.getBoundedness();
  }

  @Override
  public SplitEnumerator<S, E> createEnumerator(SplitEnumeratorContext<S> context)
      throws Exception {
    return source.createEnumerator(context);
  }

  @Override
  public SplitEnumerator<S, E> restoreEnumerator(SplitEnumeratorContext<S> context, E state)
      throws Exception {
    return source.restoreEnumerator(context, state);
  }

  @Override
  public SimpleVersionedSerializer<S> getSplitSerializer() {
    return source.getSplitSerializer();
  }

  @Override
  public SimpleVersionedSerializer<E> getEnumeratorCheckpointSerializer() {
    return source.getEnumeratorCheckpointSerializer();
  }

  @Override
  public TypeInformation<O> getProducedType() {
    return type;
  }

  @Override
  public SourceReader<O, S> createReader(SourceReaderContext context) throws Exception {
    SourceReader<I, S> reader = source.createReader(context);
    return new SourceReader<>() {
      @Override
      public void start() {
        reader.start();
      }

      @Override
      public InputStatus pollNext(ReaderOutput<O> output) throws Exception {
        return reader.pollNext(new MappedOutput(output));
      }

      @Override
      public List<S> snapshotState(long checkpointId) {
        return reader.snapshotState(checkpointId);
      }

      @Override
      public CompletableFuture<Void> isAvailable() {
        return reader.isAvailable();
      }

      @Override
      public void addSplits(List<S> splits) {
        reader.addSplits(splits);
      }

      @Override
      public void notifyNoMoreSplits() {
        reader.notifyNoMoreSplits();
      }

      @Override
      public void notifyCheckpointComplete(long checkpointId) throws Exception {
        reader.notifyCheckpointComplete(checkpointId);
      }

      @Override
      public void close() throws Exception {
        reader.close();
      }
    };
  }

  /** A split's output, or the reader's, that maps each record on its way. */
  private class MappedSplitOutput implements SourceOutput<I> {
    private final SourceOutput<O> output;

    private MappedSplitOutput(SourceOutput<O> output) {
      this.output = output;
    }

    @Override
    public void collect(I record) {
      output.collect(mapping.apply(record));
    }

    @Override
    public void collect(I record, long timestamp) {
      output.collect(mapping.apply(record), timestamp);
    }

    @Override
    public void emitWatermark(Watermark watermark) {
      output.emitWatermark(watermark);
    }

    @Override
    public void markIdle() {
      output.markIdle();
    }

    @Override
    public void markActive() {
      output.markActive();
    }
  }

  private final class MappedOutput extends MappedSplitOutput implements ReaderOutput<I> {
    private final ReaderOutput<O> output;

    private MappedOutput(ReaderOutput<O> output) {
      super(output);
      this.output = output;
    }

    @Override
    public SourceOutput<I> createOutputForSplit(String splitId) {
      return new MappedSplitOutput(output.createOutputForSplit(splitId));
    }

    @Override
    public void releaseOutputForSplit(String splitId) {
      output.releaseOutputForSplit(splitId);
    }
  }
}
