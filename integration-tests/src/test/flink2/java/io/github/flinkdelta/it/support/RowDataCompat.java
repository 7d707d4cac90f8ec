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
package io.github.flinkdelta.it.support;

import org.apache.flink.table.data.RowData;
import org.apache.flink.types.variant.Variant;

/** {@link RowData} for test rows; Flink 2.1+ adds the abstract {@code getVariant}. */
interface RowDataCompat extends RowData {

  @Override
  default Variant getVariant(int pos) {
    throw new UnsupportedOperationException("Field " + pos + " does not have that type");
  }
}
