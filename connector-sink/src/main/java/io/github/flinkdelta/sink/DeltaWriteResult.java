package io.github.flinkdelta.sink;

import io.github.flinkdelta.core.write.DataFiles;
import java.util.Objects;
import org.apache.flink.annotation.Internal;

/** The data files one writer subtask completed for one checkpoint, kept deflated. */
@Internal
public record DeltaWriteResult(DataFiles files) {
  public DeltaWriteResult {
    Objects.requireNonNull(files, "files");
  }
}
