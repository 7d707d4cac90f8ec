/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.storage;

import io.delta.storage.HadoopFileSystemLogStore;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.UUID;
import org.apache.flink.annotation.Internal;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Delta log writes on the local file system that are atomic put-if-absent, across threads and
 * processes: the commit is written to a temporary file and hard-linked to its name, which fails if
 * the name exists. delta-storage's local stores check for the file and then rename over it, and
 * Kernel creates a new store for every write, so two writers committing the same version at once
 * could both succeed and one commit would be lost.
 *
 * <p>A listing from a version reads the status of the files from that name on only. Hadoop's
 * listing stats every file in the log, so each snapshot load would cost time in proportion to the
 * table's whole retained history (two files per version, kept for 30 days by default) rather than
 * to the versions since its last checkpoint.
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
  public Iterator<FileStatus> listFrom(Path path, Configuration conf) throws IOException {
    java.nio.file.Path from = Paths.get(path.toUri());
    String fromName = from.getFileName().toString();
    FileSystem fs = path.getFileSystem(conf);
    Path parent = fs.makeQualified(path.getParent());
    long blockSize = fs.getDefaultBlockSize(parent);
    List<FileStatus> listed = new ArrayList<>();
    try (DirectoryStream<java.nio.file.Path> entries = Files.newDirectoryStream(from.getParent())) {
      for (java.nio.file.Path entry : entries) {
        String name = entry.getFileName().toString();
        if (name.compareTo(fromName) < 0) {
          continue;
        }
        BasicFileAttributes attributes;
        try {
          attributes = Files.readAttributes(entry, BasicFileAttributes.class);
        } catch (NoSuchFileException e) {
          // Removed since the directory was read (log cleanup): not part of the listing.
          continue;
        }
        listed.add(
            new FileStatus(
                attributes.size(),
                attributes.isDirectory(),
                1,
                blockSize,
                attributes.lastModifiedTime().toMillis(),
                new Path(parent, name)));
      }
    } catch (NoSuchFileException | NotDirectoryException e) {
      throw new FileNotFoundException("No such directory: " + path.getParent());
    }
    listed.sort(Comparator.comparing(status -> status.getPath().getName()));
    return listed.iterator();
  }

  @Override
  public Boolean isPartialWriteVisible(Path path, Configuration conf) {
    return false;
  }
}
