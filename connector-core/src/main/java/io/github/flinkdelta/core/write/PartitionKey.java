/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
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
