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
