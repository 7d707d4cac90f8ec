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
package io.github.flinkdelta.core.write;

import java.util.Arrays;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.binary.BinaryStringData;

/**
 * The partition values of a row. Lookups use the row's own value objects; a key kept in a map is a
 * {@link #copy()}, because Flink may reuse the memory behind the row.
 */
record PartitionKey(Object[] values) {

  PartitionKey copy() {
    Object[] copies = new Object[values.length];
    for (int i = 0; i < values.length; i++) {
      Object value = values[i];
      if (value instanceof BinaryStringData string) {
        // toBytes() may hand out the string's own array; copy() never does.
        copies[i] = string.copy();
      } else if (value instanceof DecimalData decimal) {
        copies[i] = decimal.copy();
      } else if (value instanceof byte[] bytes) {
        copies[i] = bytes.clone();
      } else {
        copies[i] = value;
      }
    }
    return new PartitionKey(copies);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof PartitionKey key && Arrays.deepEquals(values, key.values);
  }

  @Override
  public int hashCode() {
    return Arrays.deepHashCode(values);
  }

  @Override
  public String toString() {
    return Arrays.deepToString(values);
  }
}
