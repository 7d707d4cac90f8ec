package io.github.flinkdelta.sink;

import io.github.flinkdelta.core.write.DataFiles;
import java.util.Objects;
import org.apache.flink.annotation.Internal;

/**
 * Everything one checkpoint adds to the table: its data files from all writer subtasks, to be
 * committed as one Delta version under transaction ({@code appId}, {@code checkpointId}).
 */
@Internal
public record DeltaCommittable(String appId, long checkpointId, DataFiles files) {
  public DeltaCommittable {
    Objects.requireNonNull(appId, "appId");
    Objects.requireNonNull(files, "files");
  }
}
