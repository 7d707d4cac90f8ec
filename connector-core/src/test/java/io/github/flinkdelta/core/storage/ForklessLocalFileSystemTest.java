/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The connector's local file system: no checksum siblings, and still Hadoop's local one. */
class ForklessLocalFileSystemTest {

  @TempDir Path dir;

  private final Configuration conf = HadoopConfigurations.of(Map.of());

  @Test
  void filesItWritesAndRenamesHaveNoChecksumSibling() throws IOException {
    FileSystem fs = path("data.parquet").getFileSystem(conf);
    try (FSDataOutputStream out = fs.create(path("data.parquet"))) {
      out.write("rows".getBytes(StandardCharsets.UTF_8));
    }
    assertThat(fs.rename(path("data.parquet"), path("moved.parquet"))).isTrue();

    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files.map(file -> file.getFileName().toString())).containsExactly("moved.parquet");
    }
  }

  @Test
  void aFileWhoseSiblingNoLongerMatchesIsReadAsItIs() throws IOException {
    // Another engine wrote the file through Hadoop's checksummed file system; it changed since.
    LocalFileSystem checksummed = stockLocalFileSystem();
    try (FSDataOutputStream out = checksummed.create(path("_last_checkpoint"))) {
      out.write("{\"version\":10}".getBytes(StandardCharsets.UTF_8));
    }
    assertThat(dir.resolve("._last_checkpoint.crc")).exists();
    Files.writeString(dir.resolve("_last_checkpoint"), "{\"version\":20}");

    FileSystem fs = path("_last_checkpoint").getFileSystem(conf);
    try (var in = fs.open(path("_last_checkpoint"))) {
      assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8))
          .isEqualTo("{\"version\":20}");
    }
  }

  @Test
  void hadoopHandsItOutAsItsLocalFileSystem() throws IOException {
    // FileSystem.getLocal casts the JVM-wide cached instance: a raw file system there would break
    // every other user of Hadoop in the task manager.
    assertThat(FileSystem.getLocal(conf)).isInstanceOf(ForklessLocalFileSystem.class);
  }

  /** Hadoop's own checksummed local file system, outside its JVM-wide cache. */
  static LocalFileSystem stockLocalFileSystem() throws IOException {
    LocalFileSystem fs = new LocalFileSystem();
    fs.initialize(URI.create("file:///"), HadoopConfigurations.of(Map.of()));
    return fs;
  }

  private org.apache.hadoop.fs.Path path(String name) {
    return new org.apache.hadoop.fs.Path(dir.resolve(name).toUri());
  }
}
