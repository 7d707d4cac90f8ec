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
package io.github.flinkdelta.sink.upsert;

import io.github.flinkdelta.core.upsert.KeyColumns;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.table.data.RowData;

/** Keys a row by its primary key ({@link KeyColumns}), so that each key has one owning writer. */
@Internal
public final class PrimaryKeySelector implements KeySelector<RowData, String> {

  private static final long serialVersionUID = 1L;

  private final KeyColumns key;

  public PrimaryKeySelector(KeyColumns key) {
    this.key = key;
  }

  @Override
  public String getKey(RowData row) {
    return key.keyOf(row);
  }
}
