package io.github.flinkdelta.sink;

import io.github.flinkdelta.core.parquet.DataFile;
import java.util.List;
import org.apache.flink.annotation.Internal;

/** The data files one writer subtask completed for one checkpoint. */
@Internal
public record DeltaWriteResult(List<DataFile> files) {
  public DeltaWriteResult {
    files = List.copyOf(files);
  }
}
