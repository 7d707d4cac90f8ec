/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.delta.storage.HadoopFileSystemLogStore;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.LocalFileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Concurrent writers of one Delta log version: exactly one wins, whole; the rest are told. A
 * listing from a version gives what Hadoop's listing gives, from the log's files after that name.
 */
class AtomicLocalLogStoreTest {

  @TempDir Path dir;

  @Test
  void onlyOneOfManyConcurrentWritersOfAVersionSucceeds() throws Exception {
    Configuration conf = HadoopConfigurations.of(Map.of());
    org.apache.hadoop.fs.Path version =
        new org.apache.hadoop.fs.Path(dir.resolve("_delta_log/00000000000000000001.json").toUri());
    int writers = 16;
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    List<Future<Boolean>> results = new ArrayList<>();
    for (int i = 0; i < writers; i++) {
      String line = "{\"writer\":" + i + "}";
      results.add(
          pool.submit(
              () -> {
                // A new store per write, as Kernel does.
                AtomicLocalLogStore store = new AtomicLocalLogStore(conf);
                start.await();
                try {
                  store.write(version, List.of(line, line).iterator(), false, conf);
                  return true;
                } catch (FileAlreadyExistsException lost) {
                  return false;
                }
              }));
    }
    start.countDown();
    int winners = 0;
    for (Future<Boolean> result : results) {
      winners += result.get() ? 1 : 0;
    }
    pool.shutdown();

    assertThat(winners).isEqualTo(1);
    List<String> lines = Files.readAllLines(dir.resolve("_delta_log/00000000000000000001.json"));
    assertThat(lines).hasSize(2).allMatch(l -> l.equals(lines.get(0)));
    try (var files = Files.list(dir.resolve("_delta_log"))) {
      assertThat(files.filter(f -> f.getFileName().toString().endsWith(".tmp"))).isEmpty();
    }
  }

  @Test
  void anOverwriteLeavesNoChecksumOfTheOldContentBehind() throws Exception {
    Configuration conf = HadoopConfigurations.of(Map.of());
    org.apache.hadoop.fs.Path lastCheckpoint =
        new org.apache.hadoop.fs.Path(dir.resolve("_delta_log/_last_checkpoint").toUri());
    // Another engine (Spark on a local disk) wrote it through Hadoop's checksummed file system,
    // which keeps ._last_checkpoint.crc beside it.
    LocalFileSystem checksummed = ForklessLocalFileSystemTest.stockLocalFileSystem();
    try (var out = checksummed.create(lastCheckpoint, true)) {
      out.write("{\"version\":10,\"size\":4}\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
    assertThat(dir.resolve("_delta_log/._last_checkpoint.crc")).exists();

    new AtomicLocalLogStore(conf)
        .write(lastCheckpoint, List.of("{\"version\":20,\"size\":7}").iterator(), true, conf);

    // Read through the checksummed file system, as that engine's loads of the table do.
    try (var in = checksummed.open(lastCheckpoint)) {
      assertThat(new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8))
          .contains("\"version\":20");
    }
  }

  @Test
  void aListingFromAVersionGivesWhatHadoopsListingOfTheWholeLogGives() throws Exception {
    Path log = Files.createDirectories(dir.resolve("_delta_log"));
    for (int version = 0; version < 30; version++) {
      Files.writeString(log.resolve(String.format("%020d.json", version)), "{}\n".repeat(version));
      Files.writeString(log.resolve(String.format("%020d.crc", version)), "{}");
    }
    Files.writeString(log.resolve(String.format("%020d.checkpoint.parquet", 20)), "checkpoint");
    Files.writeString(log.resolve("_last_checkpoint"), "{\"version\":20}");
    Files.writeString(log.resolve(".00000000000000000030.json.0a1b.tmp"), "{}");
    Files.writeString(log.resolve(".00000000000000000029.json.crc"), "hadoop");
    Files.createDirectories(log.resolve("_staged_commits"));
    Configuration conf = HadoopConfigurations.of(Map.of());
    AtomicLocalLogStore ours = new AtomicLocalLogStore(conf);
    HadoopFileSystemLogStore hadoops =
        new HadoopFileSystemLogStore(conf) {
          @Override
          public void write(
              org.apache.hadoop.fs.Path path,
              java.util.Iterator<String> actions,
              Boolean overwrite,
              Configuration hadoopConf) {
            throw new UnsupportedOperationException();
          }

          @Override
          public Boolean isPartialWriteVisible(
              org.apache.hadoop.fs.Path path, Configuration hadoopConf) {
            return false;
          }
        };

    for (String from :
        List.of(
            String.format("%020d.json", 0),
            String.format("%020d.json", 20),
            String.format("%020d.checkpoint.parquet", 25),
            String.format("%020d.json", 31))) {
      org.apache.hadoop.fs.Path start = new org.apache.hadoop.fs.Path(log.resolve(from).toUri());
      assertThat(statuses(ours.listFrom(start, conf)))
          .as("listing from %s", from)
          .isNotEmpty()
          .containsExactlyElementsOf(statuses(hadoops.listFrom(start, conf)));
    }
    org.apache.hadoop.fs.Path missing =
        new org.apache.hadoop.fs.Path(dir.resolve("none/_delta_log/0.json").toUri());
    assertThatThrownBy(() -> ours.listFrom(missing, conf))
        .isInstanceOf(java.io.FileNotFoundException.class);
  }

  private static List<String> statuses(java.util.Iterator<org.apache.hadoop.fs.FileStatus> listed) {
    List<String> statuses = new ArrayList<>();
    listed.forEachRemaining(
        status ->
            statuses.add(
                status.getPath()
                    + " "
                    + status.getLen()
                    + " "
                    + status.isDirectory()
                    + " "
                    + status.getModificationTime()));
    return statuses;
  }
}
