/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.kernel;

import io.delta.kernel.data.Row;
import io.delta.kernel.expressions.Literal;
import io.delta.kernel.internal.InternalScanFileUtils;
import io.delta.kernel.internal.data.ScanStateRow;
import io.delta.kernel.internal.util.PartitionUtils;
import io.delta.kernel.internal.util.Utils;
import io.delta.kernel.types.DataType;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.FileStatus;
import org.apache.flink.annotation.Internal;

/**
 * What a scan's rows tell beyond Kernel's public API, as Kernel's own examples of a scan read them:
 * the physical schema of its state ({@code ScanStateRow}), a scan file's status ({@code
 * InternalScanFileUtils}), a partition value as a literal ({@code PartitionUtils}), and a file
 * handed to the Parquet handler alone ({@code Utils}).
 */
@Internal
public final class ScanFiles {

  private ScanFiles() {}

  /** The schema of the columns a scan reads from the data files, as they name them. */
  public static StructType physicalReadSchema(Row scanState) {
    return ScanStateRow.getPhysicalDataReadSchema(scanState);
  }

  /** The status of a scan file's data file. */
  public static FileStatus status(Row scanFile) {
    return InternalScanFileUtils.getAddFileStatus(scanFile);
  }

  /** The one file a read of {@code status} reads. */
  public static CloseableIterator<FileStatus> only(FileStatus status) {
    return Utils.singletonCloseableIterator(status);
  }

  /** A partition value, serialized as the log holds it, as a literal of {@code type}. */
  public static Literal partitionLiteral(DataType type, String value) {
    return PartitionUtils.literalForPartitionValue(type, value);
  }
}
