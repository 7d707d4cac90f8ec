/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.source;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;

/**
 * A Flink source that reads Delta Lake tables, on a path or in Unity Catalog. Build one with {@link
 * #builder()}.
 *
 * <pre>
 *   enumerator (one per job)             readers (parallel)
 *   snapshot's files, then each new  ─▶  a split's live rows, its deletion vector applied,
 *   version's added files, as splits     partition values added, from its checkpointed position
 * </pre>
 *
 * <p>Each split is one data file of one version. The enumerator checkpoints the next version to
 * plan and the splits no reader has; a reader checkpoints its splits with the position of the next
 * row. After a failure the job goes on from the last checkpoint and emits every row exactly once.
 */
@PublicEvolving
public final class DeltaSource
    implements Source<RowData, DeltaSplit, DeltaEnumeratorState>, ResultTypeQueryable<RowData> {

  private static final long serialVersionUID = 1L;

  private final DeltaSourceConfig config;

  DeltaSource(DeltaSourceConfig config) {
    this.config = config;
  }

  /** Starts building a source. */
  public static DeltaSourceBuilder builder() {
    return new DeltaSourceBuilder();
  }

  @Override
  public Boundedness getBoundedness() {
    return config.bounded() ? Boundedness.BOUNDED : Boundedness.CONTINUOUS_UNBOUNDED;
  }

  @Override
  public SourceReader<RowData, DeltaSplit> createReader(SourceReaderContext context) {
    return new DeltaSourceReader(context, config);
  }

  @Override
  public SplitEnumerator<DeltaSplit, DeltaEnumeratorState> createEnumerator(
      SplitEnumeratorContext<DeltaSplit> context) {
    return new DeltaSplitEnumerator(context, config, DeltaEnumeratorState.initial());
  }

  @Override
  public SplitEnumerator<DeltaSplit, DeltaEnumeratorState> restoreEnumerator(
      SplitEnumeratorContext<DeltaSplit> context, DeltaEnumeratorState state) {
    return new DeltaSplitEnumerator(context, config, state);
  }

  @Override
  public SimpleVersionedSerializer<DeltaSplit> getSplitSerializer() {
    return new DeltaSplitSerializer();
  }

  @Override
  public SimpleVersionedSerializer<DeltaEnumeratorState> getEnumeratorCheckpointSerializer() {
    return new DeltaEnumeratorStateSerializer();
  }

  /** The type of the rows read: the columns read, in their Flink types. */
  @Override
  public TypeInformation<RowData> getProducedType() {
    return InternalTypeInfo.of(config.columns().rowType());
  }

  /** The types of the columns read, as the table holds them. */
  public RowType columnTypes() {
    return config.columns().rowType();
  }
}
