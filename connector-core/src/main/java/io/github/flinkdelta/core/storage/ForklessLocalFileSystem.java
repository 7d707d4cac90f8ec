/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.storage;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Set;
import org.apache.flink.annotation.Internal;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.fs.permission.FsPermission;

/**
 * Hadoop's local file system, with permissions set through {@code java.nio} instead of a forked
 * {@code chmod} process, and without checksum files. Without Hadoop's native library, the stock
 * file system forks one process for every file it creates, which dominates the cost of writing
 * small files and commits on local disk.
 *
 * <p>Hadoop's checksummed layer writes a hidden {@code .crc} sibling beside every data file,
 * deletion vector and log file, and checks it on every read. Delta readers do not need them (other
 * engines read a file without a sibling as it is), and without the layer appends cost about a tenth
 * less CPU per row (docs/benchmarks.md). Siblings other engines wrote are not checked, and still
 * move or go with their files. The class stays a {@link LocalFileSystem}: Hadoop hands its cached
 * instance out as one ({@code FileSystem.getLocal}).
 *
 * <p>Hadoop keeps one local file system per JVM, whichever configuration asked first: other Hadoop
 * users in a task manager that asks after the connector share this one (and write no siblings
 * either), and when one of them asked first, the connector gets Hadoop's stock file system.
 */
@Internal
public final class ForklessLocalFileSystem extends LocalFileSystem {

  public ForklessLocalFileSystem() {
    super(new Raw());
    setWriteChecksum(false);
  }

  @Override
  public void initialize(URI name, Configuration conf) throws IOException {
    super.initialize(name, conf);
    // Hadoop's local file system turns verification on as its defaults say.
    setVerifyChecksum(false);
  }

  /** The raw local file system with a process-free {@link #setPermission}. */
  public static final class Raw extends RawLocalFileSystem {
    @Override
    public void setPermission(Path path, FsPermission permission) throws IOException {
      File file = pathToFile(path);
      try {
        Files.setPosixFilePermissions(file.toPath(), posix(permission));
      } catch (UnsupportedOperationException e) {
        super.setPermission(path, permission);
      }
    }

    private static Set<PosixFilePermission> posix(FsPermission permission) {
      Set<PosixFilePermission> set = EnumSet.noneOf(PosixFilePermission.class);
      add(
          set,
          permission.getUserAction(),
          PosixFilePermission.OWNER_READ,
          PosixFilePermission.OWNER_WRITE,
          PosixFilePermission.OWNER_EXECUTE);
      add(
          set,
          permission.getGroupAction(),
          PosixFilePermission.GROUP_READ,
          PosixFilePermission.GROUP_WRITE,
          PosixFilePermission.GROUP_EXECUTE);
      add(
          set,
          permission.getOtherAction(),
          PosixFilePermission.OTHERS_READ,
          PosixFilePermission.OTHERS_WRITE,
          PosixFilePermission.OTHERS_EXECUTE);
      return set;
    }

    private static void add(
        Set<PosixFilePermission> set,
        FsAction action,
        PosixFilePermission read,
        PosixFilePermission write,
        PosixFilePermission execute) {
      if (action.implies(FsAction.READ)) {
        set.add(read);
      }
      if (action.implies(FsAction.WRITE)) {
        set.add(write);
      }
      if (action.implies(FsAction.EXECUTE)) {
        set.add(execute);
      }
    }
  }
}
