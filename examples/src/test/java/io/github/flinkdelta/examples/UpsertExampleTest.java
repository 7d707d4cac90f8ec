package io.github.flinkdelta.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's upsert example, run as the README runs it: the row count it prints is the number of
 * keys live at the end of its changelog, and the table holds each of them once with its last value.
 */
class UpsertExampleTest {

  private static final Pattern ROWS =
      Pattern.compile("Rows: +(\\d+) \\(expected live keys: (\\d+)\\)");

  @TempDir Path dir;

  @Test
  void theTableHoldsTheLastValueOfEveryLiveKey() throws Exception {
    String printed = printedBy(() -> UpsertExample.main(new String[] {"--path", dir.toString()}));

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
  }

  /** What {@code job} prints to {@code System.out}, which still sees it too. */
  private static String printedBy(ThrowingRunnable job) throws Exception {
    PrintStream original = System.out;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setOut(new PrintStream(new Tee(original, captured), true, StandardCharsets.UTF_8));
    try {
      job.run();
    } finally {
      System.setOut(original);
    }
    return captured.toString(StandardCharsets.UTF_8);
  }

  private interface ThrowingRunnable {
    void run() throws Exception;
  }

  private static final class Tee extends OutputStream {
    private final OutputStream first;
    private final OutputStream second;

    Tee(OutputStream first, OutputStream second) {
      this.first = first;
      this.second = second;
    }

    @Override
    public void write(int b) throws java.io.IOException {
      first.write(b);
      second.write(b);
    }

    @Override
    public void write(byte[] b, int off, int len) throws java.io.IOException {
      first.write(b, off, len);
      second.write(b, off, len);
    }

    @Override
    public void flush() throws java.io.IOException {
      first.flush();
      second.flush();
    }
  }
}
