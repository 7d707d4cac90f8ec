/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.log;

import io.delta.kernel.statistics.DataFileStatistics;
import io.delta.kernel.types.StructType;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.annotation.Internal;

/**
 * A data file's statistics as its writer serialized them ({@code DataFile.statsJson}, made by
 * Kernel's own serializer from the physical schema), handed to Kernel's add action unchanged
 * instead of being parsed into literals only to be serialized again at every commit.
 *
 * <p>Kernel's append path reads a file's statistics only through {@link #serializeAsJson} (and the
 * record count, which row tracking reads back from the JSON); the value maps of this object are
 * empty.
 */
@Internal
public final class SerializedStatistics extends DataFileStatistics {

  private final String json;

  public SerializedStatistics(long numRecords, String json) {
    super(numRecords, Map.of(), Map.of(), Map.of(), Optional.empty());
    this.json = json;
  }

  @Override
  public String serializeAsJson(StructType physicalSchema) {
    return json;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof SerializedStatistics that && json.equals(that.json);
  }

  @Override
  public int hashCode() {
    return json.hashCode();
  }

  @Override
  public String toString() {
    return json;
  }
}
