/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.read;

import io.delta.kernel.CommitActions;
import io.delta.kernel.CommitRange;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.data.Row;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.utils.CloseableIterator;
import io.github.flinkdelta.core.kernel.AddAction;
import io.github.flinkdelta.core.kernel.KernelLog;
import io.github.flinkdelta.core.kernel.RemoveAction;
import io.github.flinkdelta.core.write.PartitionValues;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.annotation.Internal;

/**
 * The changes of a range of versions, one {@link VersionChange} per version in order, read from the
 * commits Kernel's {@link CommitRange} lists (which checks that Kernel can read each version's
 * protocol).
 *
 * <p>The actions are read through the Kernel adapter ({@link AddAction}, {@link RemoveAction}), as
 * everywhere the connector reads actions: Kernel's public API gives them only as rows.
 */
@Internal
public final class TableChanges {

  private TableChanges() {}

  /**
   * The changes of every version of {@code commits}, of the table at {@code root}; added files
   * carry their least value of {@code watermark} (null for none).
   */
  public static List<VersionChange> of(
      Engine engine, CommitRange commits, String root, WatermarkColumn watermark) {
    URI tableRoot = URI.create(root);
    List<VersionChange> changes = new ArrayList<>();
    try (CloseableIterator<CommitActions> versions =
        KernelLog.commitActions(commits, engine, false)) {
      while (versions.hasNext()) {
        try (CommitActions commit = versions.next()) {
          changes.add(change(commit, tableRoot, watermark));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (Exception e) {
      if (e instanceof RuntimeException runtime) {
        throw runtime;
      }
      throw new IllegalStateException(e);
    }
    return changes;
  }

  private static VersionChange change(CommitActions commit, URI root, WatermarkColumn watermark)
      throws IOException {
    List<ReadFile> added = new ArrayList<>();
    List<ReadFile> removed = new ArrayList<>();
    boolean metadata = false;
    long version = commit.getVersion();
    try (CloseableIterator<ColumnarBatch> batches = commit.getActions()) {
      while (batches.hasNext()) {
        ColumnarBatch batch = batches.next();
        int addIndex = batch.getSchema().indexOf("add");
        int removeIndex = batch.getSchema().indexOf("remove");
        int metadataIndex = batch.getSchema().indexOf("metaData");
        try (CloseableIterator<Row> rows = batch.getRows()) {
          while (rows.hasNext()) {
            Row row = rows.next();
            if (!row.isNullAt(addIndex)) {
              AddAction add = AddAction.of(row.getStruct(addIndex));
              if (add.dataChange()) {
                added.add(ReadFile.of(add, root, version, watermark));
              }
            } else if (!row.isNullAt(removeIndex)) {
              RemoveAction remove = RemoveAction.of(row.getStruct(removeIndex));
              if (remove.dataChange()) {
                removed.add(removed(remove, root, version));
              }
            } else if (!row.isNullAt(metadataIndex)) {
              metadata = true;
            }
          }
        }
      }
    }
    return new VersionChange(version, commit.getTimestamp(), added, removed, metadata);
  }

  private static ReadFile removed(RemoveAction remove, URI root, long version) {
    // Partition values are optional in a remove action: the file's directories name them too.
    Map<String, String> partitionValues =
        remove.partitionValues().orElseGet(() -> PartitionValues.fromPath(remove.path()));
    return new ReadFile(
        ReadFile.absolute(root, remove.path()),
        remove.size().orElse(-1L),
        0,
        partitionValues,
        remove.deletionVector().orElse(null),
        version,
        WatermarkColumn.UNKNOWN);
  }
}
