/*
 * Copyright 2026 the flink-delta authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
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
