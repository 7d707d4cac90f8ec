/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.storage;

import io.delta.storage.HadoopFileSystemLogStore;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.Iterator;
import java.util.UUID;
import org.apache.flink.annotation.Internal;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/**
 * Delta log writes on the local file system that are atomic put-if-absent, across threads and
 * processes: the commit is written to a temporary file and hard-linked to its name, which fails if
 * the name exists. delta-storage's local stores check for the file and then rename over it, and
 * Kernel creates a new store for every write, so two writers committing the same version at once
 * could both succeed and one commit would be lost.
 *
 * <p>An overwrite ({@code _last_checkpoint}) removes the Hadoop checksum file another engine may
 * have left beside the old content, as this store writes none.
 */
@Internal
public final class AtomicLocalLogStore extends HadoopFileSystemLogStore {

  public AtomicLocalLogStore(Configuration hadoopConf) {
    super(hadoopConf);
  }

  @Override
  public void write(Path path, Iterator<String> actions, Boolean overwrite, Configuration conf)
      throws IOException {
    java.nio.file.Path target = Paths.get(path.toUri());
    Files.createDirectories(target.getParent());
    java.nio.file.Path temp =
        target.resolveSibling("." + target.getFileName() + "." + UUID.randomUUID() + ".tmp");
    try {
      try (Writer out = Files.newBufferedWriter(temp, StandardCharsets.UTF_8)) {
        while (actions.hasNext()) {
          out.write(actions.next());
          out.write('\n');
        }
      }
      if (overwrite) {
        Files.move(
            temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        // Hadoop's checksummed local file system (another engine's, e.g. Spark's) keeps a checksum
        // beside the files it writes; left behind, it no longer matches, and every read through
        // that file system (every load of the table) fails over to listing the log.
        Files.deleteIfExists(target.resolveSibling("." + target.getFileName() + ".crc"));
      } else {
        // link(2) creates the name only if it does not exist: the commit either lands whole or
        // fails with FileAlreadyExistsException, which Kernel treats as a lost race.
        Files.createLink(target, temp);
      }
    } finally {
      Files.deleteIfExists(temp);
    }
  }

  @Override
  public Boolean isPartialWriteVisible(Path path, Configuration conf) {
    return false;
  }
}
