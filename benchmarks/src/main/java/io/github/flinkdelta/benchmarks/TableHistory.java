/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The versions of a path table as its commit files ({@code _delta_log/NNN.json}) record them: which
 * versions the stream committed (adds with {@code dataChange = true}, under the checkpoint id as
 * transaction version) and which rewrote files (removes and adds, all with {@code dataChange =
 * false}: the sink's compactions).
 */
final class TableHistory {

  private final List<Version> versions;

  /** One file an add or a remove names; its size as the file's add recorded it. */
  record FileAction(String path, long size, boolean dataChange) {}

  /**
   * One commit file.
   *
   * @param txnVersion the version of its transaction id, -1 without one
   */
  record Version(long number, long txnVersion, List<FileAction> adds, List<FileAction> removes) {

    Version {
      adds = List.copyOf(adds);
      removes = List.copyOf(removes);
    }

    /** Whether it adds rows to the table: a commit of the stream. */
    boolean isDataCommit() {
      return adds.stream().anyMatch(FileAction::dataChange);
    }

    /** Whether it only moves rows between files: removes and adds, none a data change. */
    boolean isRewrite() {
      return !removes.isEmpty()
          && adds.stream().noneMatch(FileAction::dataChange)
          && removes.stream().noneMatch(FileAction::dataChange);
    }

    long bytesAdded() {
      return adds.stream().mapToLong(FileAction::size).sum();
    }

    long bytesRemoved() {
      return removes.stream().mapToLong(FileAction::size).sum();
    }
  }

  private TableHistory(List<Version> versions) {
    this.versions = List.copyOf(versions);
  }

  /** Reads every commit file of the table at {@code table}, in version order. */
  static TableHistory of(Path table) throws IOException {
    ObjectMapper json = new ObjectMapper();
    List<Path> commits;
    try (Stream<Path> log = Files.list(table.resolve("_delta_log"))) {
      commits = log.filter(DeltaPathContender::isCommitFile).sorted().toList();
    }
    Map<String, Long> sizes = new HashMap<>();
    List<Version> versions = new ArrayList<>();
    for (Path commit : commits) {
      long txnVersion = -1;
      List<FileAction> adds = new ArrayList<>();
      List<JsonNode> removed = new ArrayList<>();
      for (String line : Files.readAllLines(commit)) {
        JsonNode action = json.readTree(line);
        if (action.has("txn")) {
          txnVersion = action.get("txn").path("version").asLong();
        } else if (action.has("add")) {
          JsonNode add = action.get("add");
          FileAction file =
              new FileAction(
                  add.path("path").asText(),
                  add.path("size").asLong(),
                  add.path("dataChange").asBoolean(true));
          sizes.put(file.path(), file.size());
          adds.add(file);
        } else if (action.has("remove")) {
          removed.add(action.get("remove"));
        }
      }
      List<FileAction> removes = new ArrayList<>();
      for (JsonNode remove : removed) {
        String path = remove.path("path").asText();
        // A remove may leave out the size; the add of the same file has it.
        long size = remove.has("size") ? remove.get("size").asLong() : sizes.getOrDefault(path, 0L);
        removes.add(new FileAction(path, size, remove.path("dataChange").asBoolean(true)));
      }
      versions.add(new Version(DeltaPathContender.version(commit), txnVersion, adds, removes));
    }
    return new TableHistory(versions);
  }

  /** Every commit file, in version order. */
  List<Version> versions() {
    return versions;
  }

  long latestVersion() {
    return versions.isEmpty() ? -1 : versions.get(versions.size() - 1).number();
  }

  List<Version> dataCommits() {
    return versions.stream().filter(Version::isDataCommit).toList();
  }

  List<Version> rewrites() {
    return versions.stream().filter(Version::isRewrite).toList();
  }

  /** The checkpoint id of each of the stream's commits: the sink's transaction version. */
  Map<Long, Long> checkpointOfDataCommit() {
    Map<Long, Long> checkpoints = new HashMap<>();
    for (Version version : dataCommits()) {
      checkpoints.put(version.number(), version.txnVersion());
    }
    return checkpoints;
  }

  /**
   * The Parquet files under {@code table} that no version ever added: files of a compaction that
   * never committed (cancelled when the job ended, say), which only an orphan cleanup removes.
   */
  long filesNeverAdded(Path table) throws IOException {
    Set<Path> added = new HashSet<>();
    versions.forEach(
        v -> v.adds().forEach(add -> added.add(table.resolve(URI.create(add.path()).getPath()))));
    try (Stream<Path> files = Files.walk(table)) {
      return files
          .filter(Files::isRegularFile)
          .filter(file -> !file.startsWith(table.resolve("_delta_log")))
          .filter(file -> file.getFileName().toString().endsWith(".parquet"))
          .filter(file -> !file.getFileName().toString().startsWith("."))
          .filter(file -> !added.contains(file))
          .count();
    }
  }
}
