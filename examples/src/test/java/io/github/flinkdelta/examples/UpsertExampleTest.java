/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's upsert example, run as the README runs it: the row count it prints is the number of
 * keys live at the end of its changelog, and the table holds each of them once with its last value;
 * then the README's maintenance example on the same table.
 */
class UpsertExampleTest {

  private static final Pattern FILES = Pattern.compile("Data files: (\\d+) before, (\\d+) after");

  private static final Pattern ROWS =
      Pattern.compile("Rows: +(\\d+) \\(expected live keys: (\\d+)\\)");

  @TempDir Path dir;

  @Test
  void theTableHoldsTheLastValueOfEveryLiveKey() throws Exception {
    String printed = Printed.by(() -> UpsertExample.main(new String[] {"--path", dir.toString()}));

    int expected = UpsertExample.replay(UpsertExample.CHANGES).size();
    Matcher rows = ROWS.matcher(printed);
    assertThat(rows.find()).as("the example prints its row count: %s", printed).isTrue();
    assertThat(Long.parseLong(rows.group(1))).isEqualTo(expected);
    assertThat(Long.parseLong(rows.group(2))).isEqualTo(expected);
    // Deletes leave keys absent; a key space of 200 and 5,000 changes leaves most of them live.
    assertThat(expected).isBetween(100, (int) UpsertExample.KEYS - 1);

    String table = dir.resolve("stock").toUri().toString();
    assertThat(TableContents.rows(table))
        .isEqualTo(UpsertExample.expectedRows(UpsertExample.replay(UpsertExample.CHANGES)));
    // Replaced rows became deletion vectors: commits remove files and add them again.
    assertThat(TableContents.versions(dir.resolve("stock"))).contains("remove");

    // The README's maintenance example then compacts this table: one file per partition, the
    // same rows, and nothing a vacuum may delete yet.
    String maintained = Printed.by(() -> MaintenanceExample.maintain(table));
    Matcher files = FILES.matcher(maintained);
    assertThat(files.find()).as("the example prints its file counts: %s", maintained).isTrue();
    assertThat(Long.parseLong(files.group(1))).isGreaterThan(3);
    assertThat(Long.parseLong(files.group(2))).isEqualTo(3);
    assertThat(maintained)
        .contains("Rows: the same")
        .contains(": compacted ")
        .contains("would delete 0 files");
    assertThat(TableContents.rows(table))
        .isEqualTo(UpsertExample.expectedRows(UpsertExample.replay(UpsertExample.CHANGES)));
  }
}
