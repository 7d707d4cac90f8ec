/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.upsert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkdelta.core.deletion.DeletionVectorDescriptor;
import io.github.flinkdelta.core.deletion.RowPositions;
import io.github.flinkdelta.core.write.FileIds;
import io.github.flinkdelta.core.write.RowLocation;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.math.BigDecimal;
import java.net.URI;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;

/** The values of the key index: keys, entries, per-file deletes, file ids and refused tables. */
class UpsertValuesTest {

  private static final RowType ROWS =
      RowType.of(
          new LogicalType[] {
            new BigIntType(false),
            new VarCharType(VarCharType.MAX_LENGTH),
            new DecimalType(10, 3),
            new TimestampType(6),
            new ArrayType(new IntType())
          },
          new String[] {"id", "name", "amount", "at", "tags"});

  @Test
  void keysOfEqualValuesAreEqualAndCompositeKeysAreUnambiguous() {
    KeyColumns id = KeyColumns.of("t", ROWS, List.of("ID"));
    assertThat(id.names()).containsExactly("id");
    assertThat(id.keyOf(row(42L, "a", "1.500"))).isEqualTo("42");

    KeyColumns composite = KeyColumns.of("t", ROWS, List.of("name", "amount"));
    // A decimal at another scale is the same value.
    assertThat(composite.keyOf(row(1L, "x", "1.500")))
        .isEqualTo(composite.keyOf(row(2L, "x", "1.5")));
    // Length prefixes keep "a:b" + "c" apart from "a" + "b:c".
    assertThat(composite.keyOf(row(1L, "1:1", "1")))
        .isNotEqualTo(composite.keyOf(row(1L, "1", "11")));

    KeyColumns at = KeyColumns.of("t", ROWS, List.of("at"));
    GenericRowData timed = row(1L, "a", "1");
    timed.setField(3, TimestampData.fromEpochMillis(1_000, 123_456));
    assertThat(at.keyOf(timed)).isEqualTo("1000123");
  }

  @Test
  void badKeysAreRefusedNamingTableAndColumn() {
    assertThatThrownBy(() -> KeyColumns.of("cat.s.t", ROWS, List.of("nope")))
        .hasMessageContaining("'nope'")
        .hasMessageContaining("cat.s.t");
    assertThatThrownBy(() -> KeyColumns.of("t", ROWS, List.of("tags")))
        .hasMessageContaining("'tags'")
        .hasMessageContaining("ARRAY<INT>");
    assertThatThrownBy(() -> KeyColumns.of("t", ROWS, List.of("id", "ID")))
        .hasMessageContaining("named twice");
    GenericRowData nullName = row(1L, null, "1");
    assertThatThrownBy(() -> KeyColumns.of("t", ROWS, List.of("name")).keyOf(nullName))
        .hasMessageContaining("'name'")
        .hasMessageContaining("null");
  }

  @Test
  void indexEntriesRoundTripAndStaySmall() {
    for (long position : new long[] {0, 1, 127, 128, 1_000_000, Long.MAX_VALUE}) {
      byte[] entry = IndexEntries.encode(-7L, position);
      assertThat(IndexEntries.fileId(entry)).isEqualTo(-7L);
      assertThat(IndexEntries.position(entry)).isEqualTo(position);
    }
    assertThat(IndexEntries.encode(1, 100).length).isEqualTo(9);
    assertThat(IndexEntries.encode(1, 1_000_000).length).isEqualTo(11);
  }

  @Test
  void fileDeletesUniteAndRoundTrip() throws Exception {
    FileDeletes a = new FileDeletes();
    a.add(1, 5);
    a.add(1, 5);
    a.add(2, 1L << 33);
    a.addDeletedKey("k\u00e9");
    FileDeletes b = new FileDeletes();
    b.add(1, 6);
    b.addDeletedKey("7");
    a.setIndexVersion(12);
    b.setIndexVersion(9);
    FileDeletes union = FileDeletes.union(List.of(a, b));
    assertThat(union.deletedKeys()).contains(List.of("k\u00e9", "7"));
    assertThat(union.indexVersion()).as("the least index version").isEqualTo(9);
    assertThat(a.count()).isEqualTo(2);
    assertThat(union.count()).isEqualTo(3);
    assertThat(union.byFile().get(1L).contains(6)).isTrue();

    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    union.writeTo(new DataOutputStream(bytes));
    FileDeletes read =
        FileDeletes.readFrom(
            new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())),
            FileDeletes.Format.INDEX_VERSION);
    assertThat(read).isEqualTo(union);
    assertThat(read.count()).isEqualTo(3);
    assertThat(read.indexVersion()).isEqualTo(9);
    assertThat(read.deletedKeys()).contains(List.of("k\u00e9", "7"));
  }

  @Test
  void deletedKeysAreUnknownInTheEarlierFormatAndTheIndexVersionInAllEarlierFormats()
      throws Exception {
    FileDeletes positionsOnly = new FileDeletes();
    positionsOnly.add(4, 2);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    // The earlier format: the positions, and nothing after them.
    out.writeInt(1);
    out.writeLong(4);
    positionsOnly.byFile().get(4L).writeTo(out);
    FileDeletes earlier =
        FileDeletes.readFrom(
            new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())),
            FileDeletes.Format.POSITIONS);
    assertThat(earlier.byFile()).isEqualTo(positionsOnly.byFile());
    assertThat(earlier.deletedKeys()).isEmpty();
    assertThat(earlier.indexVersion()).isEqualTo(FileDeletes.UNKNOWN_VERSION);
    assertThat(FileDeletes.union(List.of(positionsOnly, earlier)).deletedKeys()).isEmpty();
    assertThat(FileDeletes.union(List.of(positionsOnly, earlier)).indexVersion())
        .isEqualTo(FileDeletes.UNKNOWN_VERSION);
  }

  @Test
  void aDeleteOfADuplicateRowKeepsTheDeletedKeysKnown() {
    FileDeletes deletes = new FileDeletes();
    deletes.addDeletedKey("1");
    // A second row of a key whose live row stays elsewhere: deleted by position alone.
    deletes.add(4, 3);
    assertThat(deletes.deletedKeys()).contains(List.of("1"));
  }

  @Test
  void rewritesRoundTripAndLeaveTheCheckpointsDeletesAsTheyAre() throws Exception {
    FileDeletes deletes = new FileDeletes();
    deletes.add(1, 4);
    deletes.add(2, 0);
    deletes.addDeletedKey("k");
    deletes.setIndexVersion(7);
    RewriteLayout layout =
        new RewriteLayout(
            3,
            List.of(
                new RewriteLayout.Input(
                    1,
                    DeletionVectorDescriptor.inline(new RowPositions().toBitmapData(), 0),
                    List.of(new RewriteLayout.Run(9, 0, 4), new RewriteLayout.Run(10, 0, 2))),
                new RewriteLayout.Input(3, null, List.of())));
    deletes.addRewrite(layout);
    assertThat(deletes.byFile()).containsOnlyKeys(1L, 2L);
    assertThat(deletes.rewrittenOutputs()).containsExactly(9L, 10L);
    assertThat(deletes.isEmpty()).isFalse();

    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    deletes.writeTo(new DataOutputStream(bytes));
    FileDeletes read =
        FileDeletes.readFrom(
            new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())),
            FileDeletes.Format.INDEX_VERSION);
    assertThat(read).isEqualTo(deletes);
    assertThat(read.rewrites()).containsExactly(layout);

    FileDeletes checkpoint = read.withoutRewrites();
    assertThat(checkpoint.byFile()).containsOnlyKeys(1L, 2L);
    assertThat(checkpoint.rewrites()).isEmpty();
    assertThat(checkpoint.indexVersion()).isEqualTo(7);
    assertThat(checkpoint.deletedKeys()).contains(List.of("k"));
  }

  @Test
  void aRewrittenRowIsFoundAtItsRankAmongTheRowsTheRewriteRead() {
    RowPositions read = new RowPositions();
    read.add(1);
    read.add(4);
    RewriteLayout.Input input =
        new RewriteLayout.Input(
            1, null, List.of(new RewriteLayout.Run(9, 10, 2), new RewriteLayout.Run(10, 0, 3)));
    // Rows 0, 2, 3, 5 and 6 were read: ranks 0 to 4.
    assertThat(RewriteLayout.outputPosition(input, read, 0)).isEqualTo(new RowLocation(9, 10));
    assertThat(RewriteLayout.outputPosition(input, read, 1)).isNull();
    assertThat(RewriteLayout.outputPosition(input, read, 2)).isEqualTo(new RowLocation(9, 11));
    assertThat(RewriteLayout.outputPosition(input, read, 3)).isEqualTo(new RowLocation(10, 0));
    assertThat(RewriteLayout.outputPosition(input, read, 6)).isEqualTo(new RowLocation(10, 2));
  }

  @Test
  void fileIdsFollowTheLogsPathsBackToTheWritersPaths() {
    URI root = URI.create("file:/tmp/t/");
    String written = "p=a%20b/part-1.parquet";
    // Kernel writes the path URI-encoded; relative or absolute, it decodes to the writer's path.
    assertThat(FileIds.relativePath("p=a%2520b/part-1.parquet", root)).isEqualTo(written);
    assertThat(FileIds.relativePath("file:/tmp/t/p=a%2520b/part-1.parquet", root))
        .isEqualTo(written);
    assertThat(FileIds.of(written)).isNotEqualTo(FileIds.of("p=a%20b/part-2.parquet"));
  }

  @Test
  void tablesWhoseFeaturesForbidUpsertsAreNamed() {
    assertThat(UpsertTables.problems("t", Map.of("delta.enableDeletionVectors", "true"))).isEmpty();
    assertThat(UpsertTables.problems("t", Map.of("delta.enableChangeDataFeed", "true")))
        .singleElement()
        .asString()
        .contains("change data feed");
    assertThat(UpsertTables.problems("t", Map.of("delta.appendOnly", "true")))
        .singleElement()
        .asString()
        .contains("append-only");
    assertThat(UpsertTables.problems("t", Map.of("delta.enableDeletionVectors", "false")))
        .singleElement()
        .asString()
        .contains("'delta.enableDeletionVectors' = 'false'");
    assertThat(UpsertTables.keyMismatch("t", List.of("id"), List.of("ID"))).isNull();
    assertThat(UpsertTables.keyMismatch("t", List.of("id"), List.of()))
        .contains("records the primary key (id)");
    assertThat(UpsertTables.keyMismatch("t", List.of("id"), List.of("name")))
        .contains("keyed by (name)");
  }

  private static GenericRowData row(Long id, String name, String amount) {
    return GenericRowData.of(
        id,
        name == null ? null : StringData.fromString(name),
        DecimalData.fromBigDecimal(new BigDecimal(amount), 10, 3),
        TimestampData.fromEpochMillis(0),
        null);
  }
}
