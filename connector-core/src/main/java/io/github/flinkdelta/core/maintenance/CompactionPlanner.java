/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.maintenance;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.annotation.Internal;

/**
 * Chooses what a compaction rewrites: per partition, the small files and the files with many
 * deleted rows, packed into groups whose live bytes stay within the target file size. A group is
 * kept when it merges at least {@link CompactionOptions#minInputFiles} files, or when one of its
 * files has at least {@link CompactionOptions#deletedRowsRatio} of its rows deleted. Groups are
 * taken until the run's byte budget is spent.
 */
@Internal
public final class CompactionPlanner {

  private CompactionPlanner() {}

  /** The groups to rewrite among {@code files}, the fullest partitions first. */
  public static List<CompactionGroup> plan(List<FileCandidate> files, CompactionOptions options) {
    Map<Map<String, String>, List<FileCandidate>> byPartition = new LinkedHashMap<>();
    for (FileCandidate file : files) {
      if (file.sizeBytes() < options.smallFileBytes()
          || file.deletedRatio() >= options.deletedRowsRatio()) {
        byPartition.computeIfAbsent(file.partitionValues(), p -> new ArrayList<>()).add(file);
      }
    }
    List<CompactionGroup> groups = new ArrayList<>();
    for (Map.Entry<Map<String, String>, List<FileCandidate>> partition : byPartition.entrySet()) {
      for (List<FileCandidate> bin : pack(partition.getValue(), options.targetFileSizeBytes())) {
        if (worthRewriting(bin, options)) {
          groups.add(new CompactionGroup(partition.getKey(), bin));
        }
      }
    }
    groups.sort(Comparator.comparingInt((CompactionGroup g) -> g.files().size()).reversed());
    List<CompactionGroup> taken = new ArrayList<>();
    long budget = options.maxBytesPerRun();
    for (CompactionGroup group : groups) {
      if (group.sizeBytes() <= budget) {
        taken.add(group);
        budget -= group.sizeBytes();
      }
    }
    return taken;
  }

  /** First fit by decreasing live bytes: each bin's live bytes stay within {@code capacity}. */
  private static List<List<FileCandidate>> pack(List<FileCandidate> files, long capacity) {
    List<FileCandidate> sorted = new ArrayList<>(files);
    sorted.sort(Comparator.comparingLong(FileCandidate::liveBytes).reversed());
    List<List<FileCandidate>> bins = new ArrayList<>();
    List<Long> free = new ArrayList<>();
    for (FileCandidate file : sorted) {
      int bin = 0;
      while (bin < bins.size() && free.get(bin) < file.liveBytes()) {
        bin++;
      }
      if (bin == bins.size()) {
        bins.add(new ArrayList<>());
        free.add(capacity);
      }
      bins.get(bin).add(file);
      free.set(bin, free.get(bin) - file.liveBytes());
    }
    return bins;
  }

  private static boolean worthRewriting(List<FileCandidate> bin, CompactionOptions options) {
    return bin.size() >= options.minInputFiles()
        || bin.stream().anyMatch(file -> file.deletedRatio() >= options.deletedRowsRatio());
  }
}
