package io.github.flinkdelta.benchmarks;

import io.github.flinkdelta.core.parquet.DataFile;
import io.github.flinkdelta.core.storage.HadoopConfigurations;
import io.github.flinkdelta.sink.DeltaCommittable;
import io.github.flinkdelta.sink.DeltaCommittableSerializer;
import io.github.flinkdelta.sink.DeltaWriteResult;
import io.github.flinkdelta.sink.DeltaWriteResultSerializer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Bytes per data file in the state Flink checkpoints for the sink: a committable (what the
 * committer keeps until its checkpoint is committed) and a writer result (writer to committer),
 * each holding files with the statistics of a real file of benchmark rows. Row data never enters
 * this state; only file paths, sizes, partition values and statistics do.
 */
final class CommitterStateSize {

  private CommitterStateSize() {}

  static Figures measure(Path dir) throws Exception {
    DataFile template =
        SyntheticTables.template(
            dir.resolve("state-size-table").toUri().toString(), HadoopConfigurations.of(Map.of()));
    Figures figures =
        new Figures("committer-state-size")
            .put("stats_json_bytes_per_file", template.statsJson().length());
    for (int count : new int[] {1, 1_000, 100_000}) {
      List<DataFile> files = SyntheticTables.files(template, 0, count);
      byte[] committable =
          new DeltaCommittableSerializer()
              .serialize(new DeltaCommittable("an-application-id", 42, files));
      byte[] writeResult = new DeltaWriteResultSerializer().serialize(new DeltaWriteResult(files));
      figures
          .put("committable_bytes_per_file_" + count, committable.length / (double) count)
          .put("write_result_bytes_per_file_" + count, writeResult.length / (double) count);
    }
    return figures;
  }
}
