/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.kernel;

import io.delta.kernel.data.Row;
import io.delta.kernel.internal.actions.AddFile;
import io.delta.kernel.internal.actions.SingleAction;
import io.delta.kernel.internal.util.VectorUtils;
import io.delta.kernel.statistics.DataFileStatistics;
import io.delta.kernel.types.StructType;
import io.github.flinkdelta.core.deletion.DeletionVectorDescriptor;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.annotation.Internal;

/**
 * A file's add action, read from a row of a scan or of the log, and add and remove action rows for
 * a commit. Kernel's public API gives actions only as rows; its internal {@code AddFile} and {@code
 * SingleAction} name their fields as the protocol does (UpsertITCase and TableLogTest fail when
 * their shape changes).
 */
@Internal
public final class AddAction {

  private final AddFile add;

  private AddAction(AddFile add) {
    this.add = add;
  }

  /** The add action a row of Kernel's add schema holds (a scan file's or a log row's add). */
  public static AddAction of(Row addRow) {
    return new AddAction(new AddFile(addRow));
  }

  /** The add action a commit action row (Kernel's single action) holds; null for another action. */
  public static AddAction inAction(Row action) {
    if (action.isNullAt(SingleAction.ADD_FILE_ORDINAL)) {
      return null;
    }
    return of(action.getStruct(SingleAction.ADD_FILE_ORDINAL));
  }

  public String path() {
    return add.getPath();
  }

  public long size() {
    return add.getSize();
  }

  public long modificationTime() {
    return add.getModificationTime();
  }

  public boolean dataChange() {
    return add.getDataChange();
  }

  public Map<String, String> partitionValues() {
    return VectorUtils.toJavaMap(add.getPartitionValues());
  }

  public Optional<String> statsJson() {
    return add.getStatsJson();
  }

  /** The statistics of the columns of {@code schema}, parsed as Kernel parses them. */
  public Optional<DataFileStatistics> stats(StructType schema) {
    return add.getStats(schema);
  }

  public Optional<DeletionVectorDescriptor> deletionVector() {
    return add.getDeletionVector().map(KernelDeletionVectors::fromKernel);
  }

  public Optional<Map<String, String>> tags() {
    return add.getTags().map(VectorUtils::<String, String>toJavaMap);
  }

  public Optional<Long> baseRowId() {
    return add.getBaseRowId();
  }

  public Optional<Long> defaultRowCommitVersion() {
    return add.getDefaultRowCommitVersion();
  }

  /** An add row of Kernel's add schema; the optional fields are null when absent. */
  public static Row row(
      String path,
      Map<String, String> partitionValues,
      long size,
      long modificationTime,
      boolean dataChange,
      DeletionVectorDescriptor deletionVector,
      Map<String, String> tags,
      Long baseRowId,
      Long defaultRowCommitVersion,
      DataFileStatistics stats) {
    return AddFile.createAddFileRow(
        null,
        path,
        VectorUtils.stringStringMapValue(partitionValues),
        size,
        modificationTime,
        dataChange,
        Optional.ofNullable(deletionVector).map(KernelDeletionVectors::toKernel),
        Optional.ofNullable(tags).map(VectorUtils::stringStringMapValue),
        Optional.ofNullable(baseRowId),
        Optional.ofNullable(defaultRowCommitVersion),
        Optional.ofNullable(stats));
  }

  /** The commit action that adds the file of {@code addRow}. */
  public static Row addAction(Row addRow) {
    return SingleAction.createAddFileSingleAction(addRow);
  }

  /**
   * The commit action that removes the file of {@code addRow} at {@code timestamp}, keeping its
   * deletion vector and row-tracking fields.
   */
  public static Row removeAction(Row addRow, boolean dataChange, long timestamp) {
    return SingleAction.createRemoveFileSingleAction(
        new AddFile(addRow).toRemoveFileRow(dataChange, Optional.of(timestamp)));
  }
}
