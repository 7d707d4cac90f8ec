/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks;

import io.github.flinkdelta.core.storage.HadoopConfigurations;
import io.github.flinkdelta.core.write.DataFile;
import io.github.flinkdelta.core.write.DataFiles;
import io.github.flinkdelta.sink.committer.DeltaCommittable;
import io.github.flinkdelta.sink.committer.DeltaCommittableSerializer;
import io.github.flinkdelta.sink.writer.DeltaWriteResult;
import io.github.flinkdelta.sink.writer.DeltaWriteResultSerializer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;

/**
 * Bytes per data file in the state Flink checkpoints for the sink: a committable (what the
 * committer keeps until its checkpoint is committed) and a writer result (writer to committer). The
 * files are real: {@value #FILES} partitions of benchmark rows written by the sink's writer, each
 * file with its own statistics. Row data never enters this state; only file paths, sizes, partition
 * values and statistics do.
 */
final class CommitterStateSize {

  private static final int FILES = 2_000;
  private static final int ROWS_PER_FILE = 50;

  private CommitterStateSize() {}

  static Figures measure(Path dir) throws Exception {
    List<DataFile> files = write(dir.resolve("state-size-table").toUri().toString());
    Figures figures =
        new Figures("committer-state-size")
            .put("files", files.size())
            .put(
                "stats_json_bytes_per_file",
                files.stream().mapToInt(file -> file.statsJson().length()).average().orElse(0));
    for (int count : new int[] {1, files.size()}) {
      DataFiles some = DataFiles.of(files.subList(0, count));
      byte[] committable =
          new DeltaCommittableSerializer()
              .serialize(new DeltaCommittable("an-application-id", 42, some));
      byte[] writeResult = new DeltaWriteResultSerializer().serialize(new DeltaWriteResult(some));
      figures
          .put("committable_bytes_per_file_" + count, committable.length / (double) count)
          .put("write_result_bytes_per_file_" + count, writeResult.length / (double) count);
    }
    return figures;
  }

  private static List<DataFile> write(String table) throws Exception {
    return SyntheticTables.write(
        table,
        HadoopConfigurations.of(Map.of()),
        "state-size",
        LongStream.range(0, (long) FILES * ROWS_PER_FILE)
            .mapToObj(i -> BenchmarkRows.row(i, "p" + i / ROWS_PER_FILE))
            .iterator());
  }
}
