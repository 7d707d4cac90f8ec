/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.support;

import java.io.DataInputStream;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.checkpoint.Checkpoints;

/** Stop-with-savepoint of a job on the MiniCluster, and what a savepoint records. */
public final class Savepoints {

  private Savepoints() {}

  /**
   * Stops {@code job} with a savepoint under {@code directory}, without draining, trying again
   * while a restart keeps the job from taking one.
   *
   * @return the savepoint's path
   */
  public static String stop(JobClient job, Path directory) throws Exception {
    long deadline = System.nanoTime() + Await.HANG_GUARD.toNanos();
    while (true) {
      try {
        return job.stopWithSavepoint(
                false, directory.toUri().toString(), SavepointFormatType.CANONICAL)
            .get(Await.HANG_GUARD.toMinutes(), TimeUnit.MINUTES);
      } catch (ExecutionException e) {
        if (System.nanoTime() > deadline || job.getJobStatus().get().isGloballyTerminalState()) {
          throw e;
        }
        Thread.sleep(100);
      }
    }
  }

  /** The checkpoint id {@code savepoint} records. */
  public static long checkpointIdOf(String savepoint) throws IOException {
    Path metadata = Path.of(URI.create(savepoint)).resolve("_metadata");
    try (DataInputStream in = new DataInputStream(Files.newInputStream(metadata))) {
      return Checkpoints.loadCheckpointMetadata(in, Savepoints.class.getClassLoader(), savepoint)
          .getCheckpointId();
    }
  }
}
