/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CompactionPlannerTest {

  private static final long MIB = 1L << 20;
  private static final CompactionOptions OPTIONS =
      new CompactionOptions(128 * MIB, 5, 1L << 40, 0.2);

  @Test
  void smallFilesOfAPartitionArePackedIntoGroupsWithinTheTargetSize() {
    List<FileCandidate> files = files("a", 12, 20 * MIB);

    List<CompactionGroup> groups = CompactionPlanner.plan(files, OPTIONS);

    assertThat(groups).hasSize(2);
    assertThat(groups).allSatisfy(group -> assertThat(group.files()).hasSize(6));
    assertThat(groups)
        .allSatisfy(group -> assertThat(group.sizeBytes()).isLessThanOrEqualTo(128 * MIB));
  }

  @Test
  void aGroupNeverMixesPartitions() {
    List<FileCandidate> files = new ArrayList<>(files("a", 5, MIB));
    files.addAll(files("b", 5, MIB));

    List<CompactionGroup> groups = CompactionPlanner.plan(files, OPTIONS);

    assertThat(groups).hasSize(2);
    for (CompactionGroup group : groups) {
      assertThat(group.files())
          .allSatisfy(f -> assertThat(f.partitionValues()).isEqualTo(group.partitionValues()));
    }
  }

  @Test
  void tooFewSmallFilesAreLeftAlone() {
    List<FileCandidate> files = new ArrayList<>(files("a", 4, MIB));
    files.addAll(files("b", 5, MIB));

    assertThat(CompactionPlanner.plan(files, OPTIONS))
        .singleElement()
        .satisfies(group -> assertThat(group.partitionValues()).containsEntry("p", "b"));
  }

  @Test
  void largeFilesAreLeftAloneUnlessManyOfTheirRowsAreDeleted() {
    FileCandidate large = new FileCandidate("large", Map.of(), 120 * MIB, 1000, 100);
    FileCandidate deleted = new FileCandidate("deleted", Map.of(), 120 * MIB, 1000, 200);

    assertThat(CompactionPlanner.plan(List.of(large, deleted), OPTIONS))
        .singleElement()
        .satisfies(group -> assertThat(group.files()).containsExactly(deleted));
  }

  @Test
  void aRunRewritesNoMoreThanItsBytes() {
    CompactionOptions options = new CompactionOptions(128 * MIB, 5, 130 * MIB, 0.2);

    List<CompactionGroup> groups = CompactionPlanner.plan(files("a", 12, 20 * MIB), options);

    assertThat(groups).singleElement().satisfies(g -> assertThat(g.files()).hasSize(6));
  }

  @Test
  void optionsOutsideTheirRangeAreRefusedNamingTheOption() {
    assertThatThrownBy(() -> new CompactionOptions(0, 5, 1, 0.2))
        .hasMessageContaining("target file size");
    assertThatThrownBy(() -> new CompactionOptions(1, 1, 1, 0.2))
        .hasMessageContaining("2 input files");
    assertThatThrownBy(() -> new CompactionOptions(1, 5, 1, 0))
        .hasMessageContaining("deleted rows ratio");
  }

  private static List<FileCandidate> files(String partition, int count, long size) {
    List<FileCandidate> files = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      files.add(new FileCandidate(partition + "/f" + i, Map.of("p", partition), size, 100, 0));
    }
    return files;
  }
}
