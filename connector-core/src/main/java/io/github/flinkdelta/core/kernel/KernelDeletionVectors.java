/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.kernel;

import io.github.flinkdelta.core.deletion.DeletionVectorDescriptor;
import java.util.Optional;

/**
 * Deletion vector descriptors in Kernel's form and back: Kernel's class is internal, and the only
 * way to put a vector into an add action row or read one from it.
 */
final class KernelDeletionVectors {

  private KernelDeletionVectors() {}

  /** The descriptor of a Kernel action's deletion vector. */
  static DeletionVectorDescriptor fromKernel(
      io.delta.kernel.internal.actions.DeletionVectorDescriptor dv) {
    return new DeletionVectorDescriptor(
        dv.getStorageType(),
        dv.getPathOrInlineDv(),
        dv.getOffset().orElse(null),
        dv.getSizeInBytes(),
        dv.getCardinality());
  }

  /** The descriptor in Kernel's form. */
  static io.delta.kernel.internal.actions.DeletionVectorDescriptor toKernel(
      DeletionVectorDescriptor dv) {
    return new io.delta.kernel.internal.actions.DeletionVectorDescriptor(
        dv.storageType(),
        dv.pathOrInlineDv(),
        Optional.ofNullable(dv.offset()),
        dv.sizeInBytes(),
        dv.cardinality());
  }
}
