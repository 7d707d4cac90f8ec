/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.kernel;

import io.delta.kernel.data.Row;
import io.delta.kernel.internal.actions.RemoveFile;
import io.delta.kernel.internal.util.VectorUtils;
import io.delta.kernel.types.StructType;
import io.github.flinkdelta.core.deletion.DeletionVectorDescriptor;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.annotation.Internal;

/**
 * A file's remove action, read from a row of the log through Kernel's internal {@code RemoveFile},
 * which names its fields as the protocol does (TableLogTest fails when its shape changes).
 */
@Internal
public final class RemoveAction {

  /** Kernel's schema of a remove action. */
  public static final StructType SCHEMA = RemoveFile.FULL_SCHEMA;

  private final RemoveFile remove;

  private RemoveAction(RemoveFile remove) {
    this.remove = remove;
  }

  /** The remove action a row of Kernel's remove schema holds. */
  public static RemoveAction of(Row removeRow) {
    return new RemoveAction(new RemoveFile(removeRow));
  }

  public String path() {
    return remove.getPath();
  }

  public Optional<Long> size() {
    return remove.getSize();
  }

  public boolean dataChange() {
    return remove.getDataChange();
  }

  public Optional<Long> deletionTimestamp() {
    return remove.getDeletionTimestamp();
  }

  public Optional<Map<String, String>> partitionValues() {
    return remove.getPartitionValues().map(VectorUtils::<String, String>toJavaMap);
  }

  public Optional<DeletionVectorDescriptor> deletionVector() {
    return remove.getDeletionVector().map(KernelDeletionVectors::fromKernel);
  }
}
