package io.github.flinkdelta.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's maintenance example, run as the README runs it: compaction leaves one file per
 * partition with the same rows, and the vacuum dry run lists nothing to delete yet.
 */
class MaintenanceExampleTest {

  private static final Pattern FILES = Pattern.compile("Data files: (\\d+) before, (\\d+) after");

  @TempDir Path dir;

  @Test
  void compactionLeavesOneFilePerPartitionWithTheSameRows() throws Exception {
    String printed =
        Printed.by(() -> MaintenanceExample.main(new String[] {"--path", dir.toString()}));

    Matcher files = FILES.matcher(printed);
    assertThat(files.find()).as("the example prints its file counts: %s", printed).isTrue();
    assertThat(Long.parseLong(files.group(1))).isGreaterThan(3);
    assertThat(Long.parseLong(files.group(2))).isEqualTo(3);
    assertThat(printed)
        .contains("Rows: the same")
        .contains(": compacted ")
        .contains("would delete 0 files");
    assertThat(TableContents.rows(dir.resolve("stock").toUri().toString()))
        .isEqualTo(UpsertExample.expectedRows(UpsertExample.replay(UpsertExample.CHANGES)));
  }
}
