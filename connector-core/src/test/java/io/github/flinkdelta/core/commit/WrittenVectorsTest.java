/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.commit;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkdelta.core.deletion.DeletionVectorDescriptor;
import io.github.flinkdelta.core.deletion.RowPositions;
import org.junit.jupiter.api.Test;

/** The committer's memory of its own deletion vectors stays within its budget and never lies. */
class WrittenVectorsTest {

  @Test
  void rowsAreAHitOnlyForTheVectorTheyAreOf() {
    WrittenVectors written = new WrittenVectors(1 << 20);
    written.committed(1, vector("a", 2), rows(3, 5));

    assertThat(written.rowsOf(1, vector("a", 2))).isNotNull().satisfies(this::holdsThreeAndFive);
    assertThat(written.rowsOf(1, vector("b", 2))).as("another writer's vector").isNull();
    assertThat(written.rowsOf(2, vector("a", 2))).as("another file").isNull();
  }

  @Test
  void aHitIsACopyThatTheNextCommitMayChange() {
    WrittenVectors written = new WrittenVectors(1 << 20);
    written.committed(1, vector("a", 2), rows(3, 5));

    written.rowsOf(1, vector("a", 2)).add(7);

    assertThat(written.rowsOf(1, vector("a", 2)).cardinality()).isEqualTo(2);
  }

  @Test
  void theLeastRecentlyUsedRowsGoWhenTheBudgetIsSpent() {
    long oneFile = rows(3, 5).compacted().sizeInBytes();
    WrittenVectors written = new WrittenVectors(3 * oneFile);
    for (long file = 1; file <= 3; file++) {
      written.committed(file, vector("v" + file, 2), rows(3, 5));
    }
    written.rowsOf(1, vector("v1", 2)); // file 1 used last, file 2 is now the eldest

    written.committed(4, vector("v4", 2), rows(3, 5));

    assertThat(written.files()).isEqualTo(3);
    assertThat(written.bytes()).isLessThanOrEqualTo(3 * oneFile);
    assertThat(written.rowsOf(2, vector("v2", 2))).isNull();
    assertThat(written.rowsOf(1, vector("v1", 2))).isNotNull();
    assertThat(written.rowsOf(4, vector("v4", 2))).isNotNull();
  }

  @Test
  void theRowsOfARemovedFileAreDropped() {
    WrittenVectors written = new WrittenVectors(1 << 20);
    written.committed(1, vector("a", 2), rows(3, 5));

    written.forget(1);

    assertThat(written.rowsOf(1, vector("a", 2))).isNull();
    assertThat(written.bytes()).isZero();
    assertThat(written.files()).isZero();
  }

  private void holdsThreeAndFive(RowPositions positions) {
    assertThat(positions.cardinality()).isEqualTo(2);
    assertThat(positions.contains(3)).isTrue();
    assertThat(positions.contains(5)).isTrue();
  }

  private static RowPositions rows(long... positions) {
    RowPositions rows = new RowPositions();
    for (long position : positions) {
      rows.add(position);
    }
    return rows;
  }

  private static DeletionVectorDescriptor vector(String id, long cardinality) {
    return new DeletionVectorDescriptor(
        DeletionVectorDescriptor.ABSOLUTE_PATH, "/vectors/" + id + ".bin", 1, 10, cardinality);
  }
}
