/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.deletion;

import io.delta.kernel.defaults.engine.DefaultEngine;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.internal.deletionvectors.DeletionVectorUtils;
import io.delta.kernel.internal.deletionvectors.RoaringBitmapArray;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;

/**
 * Delta Kernel's own reader of deletion vectors, the one a Kernel scan applies: the reference our
 * codec is tested against. These Kernel classes are internal, so only tests use them.
 */
final class KernelDeletionVectors {

  private KernelDeletionVectors() {}

  /** Kernel's descriptor of the same fields. */
  static io.delta.kernel.internal.actions.DeletionVectorDescriptor toKernel(
      DeletionVectorDescriptor dv) {
    return new io.delta.kernel.internal.actions.DeletionVectorDescriptor(
        dv.storageType(),
        dv.pathOrInlineDv(),
        Optional.ofNullable(dv.offset()),
        dv.sizeInBytes(),
        dv.cardinality());
  }

  /** Loads {@code dv} as a Kernel scan does. */
  static RoaringBitmapArray load(
      Configuration conf, String tableRoot, DeletionVectorDescriptor dv) {
    Engine engine = DefaultEngine.create(conf);
    return DeletionVectorUtils.loadNewDvAndBitmap(engine, tableRoot, toKernel(dv))._2;
  }
}
