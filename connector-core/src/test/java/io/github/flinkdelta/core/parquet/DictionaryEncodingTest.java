/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkdelta.core.config.TableWriteOptions;
import io.github.flinkdelta.core.testing.IdTextTables;
import io.github.flinkdelta.core.write.DataFile;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongFunction;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.values.ValuesWriter;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.example.GroupReadSupport;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.io.api.Binary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * String columns go through {@link BinaryDictionaryWriter}: dictionary pages while the values
 * repeat, plain pages once the dictionary outgrows its page, a new dictionary per row group, and
 * every value read back exactly by parquet-java's own reader. Columns whose dictionary did not pay
 * off are written plainly in the next files, until a retry ({@link DictionaryChoices}).
 */
class DictionaryEncodingTest {

  private static final String ALPHABET = "abcdefghijklmnopqrstuvwxyzäöü€0123456789-_/?&=.:;";

  @TempDir Path dir;

  @Test
  void repeatedStringsAreDictionaryEncodedAndReadBackExactly() throws Exception {
    // 600 values of 0 to 59 characters (some multi-byte), each length and tail length covered.
    LongFunction<String> text = i -> value((int) (i * 7 % 600));
    DataFile file = writeOne("repeated", new Configuration(), 30_000, text);

    assertThat(readTexts("repeated", file)).isEqualTo(expected(30_000, text));
    ColumnChunkMetaData column = textColumn("repeated", file).get(0);
    assertThat(column.hasDictionaryPage()).isTrue();
    assertThat(column.getEncodings()).contains(Encoding.PLAIN_DICTIONARY);
    assertThat(column.getEncodings()).doesNotContain(Encoding.PLAIN);
  }

  @Test
  void distinctStringsFallBackToPlainPagesOnceTheDictionaryIsFull() throws Exception {
    // 60,000 distinct values of ~45 bytes: past the 1 MB dictionary page after ~22,000.
    LongFunction<String> text = i -> "distinct-" + i + "-" + value((int) (i % 36));
    DataFile file = writeOne("distinct", new Configuration(), 60_000, text);

    assertThat(readTexts("distinct", file)).isEqualTo(expected(60_000, text));
    assertThat(textColumn("distinct", file).get(0).getEncodings()).contains(Encoding.PLAIN);
  }

  @Test
  void eachRowGroupStartsADictionaryOfItsOwn() throws Exception {
    Configuration options = new Configuration();
    options.set(TableWriteOptions.ROW_GROUP_SIZE, MemorySize.parse("32kb"));
    options.set(TableWriteOptions.PAGE_SIZE, MemorySize.parse("8kb"));
    // The values change every 2,000 rows, so later row groups hold values earlier ones lack.
    LongFunction<String> text = i -> "group-" + (i / 2_000) + "-" + value((int) (i % 40));
    DataFile file = writeOne("groups", options, 20_000, text);

    assertThat(readTexts("groups", file)).isEqualTo(expected(20_000, text));
    List<ColumnChunkMetaData> columns = textColumn("groups", file);
    assertThat(columns).hasSizeGreaterThan(2);
    assertThat(columns).allMatch(ColumnChunkMetaData::hasDictionaryPage);
  }

  @Test
  void equalBytesHashAlikeWhereverTheyStartInTheirArrays() {
    byte[] source = ALPHABET.repeat(4).getBytes(StandardCharsets.UTF_8);
    for (int length = 0; length <= 40; length++) {
      byte[] shifted = new byte[length + 13];
      System.arraycopy(source, 5, shifted, 13, length);
      assertThat(BinaryDictionaryWriter.hash(shifted, 13, length))
          .as("length %d", length)
          .isEqualTo(BinaryDictionaryWriter.hash(source, 5, length));
    }
    // A change in any one byte changes the hash.
    for (int at = 0; at < 24; at++) {
      byte[] changed = java.util.Arrays.copyOf(source, 24);
      changed[at] ^= 1;
      assertThat(BinaryDictionaryWriter.hash(changed, 0, 24))
          .as("byte %d", at)
          .isNotEqualTo(BinaryDictionaryWriter.hash(source, 0, 24));
    }
  }

  @Test
  void aColumnWhoseDictionaryDidNotPayOffIsWrittenPlainlyUntilTheNextRetry() throws Exception {
    Configuration options = new Configuration();
    options.set(TableWriteOptions.MAX_ROWS_PER_FILE, 1_000L);
    // Distinct values in the first file, ten repeating values from the second on.
    LongFunction<String> text = i -> i < 1_000 ? "distinct-value-" + i : "repeating-" + (i % 10);
    int files = DictionaryChoices.FILES_BETWEEN_RETRIES + 2;
    List<DataFile> written = write("choices", options, files * 1_000, text);

    assertThat(written).hasSize(files);
    List<Boolean> dictionaries = new ArrayList<>();
    List<String> texts = new ArrayList<>();
    for (DataFile file : written) {
      dictionaries.add(textColumn("choices", file).get(0).hasDictionaryPage());
      texts.addAll(readTexts("choices", file, texts.size()));
    }
    assertThat(texts).isEqualTo(expected(files * 1_000, text));
    List<Boolean> expected = new ArrayList<>();
    for (int file = 0; file < files; file++) {
      // The first file tries and drops its dictionary, the next ones do not try until the retry.
      expected.add(file >= DictionaryChoices.FILES_BETWEEN_RETRIES);
    }
    assertThat(dictionaries).isEqualTo(expected);
  }

  @Test
  void valuesFromDirectBuffersSlicesAndEmptyValuesFindTheirEntries() {
    byte[] large = ALPHABET.repeat(500).getBytes(StandardCharsets.UTF_8);
    ByteBuffer direct = ByteBuffer.allocateDirect(large.length).put(large).flip();
    byte[] padded = new byte[large.length + 7];
    System.arraycopy(large, 0, padded, 7, large.length);
    List<Binary> input =
        List.of(
            Binary.fromConstantByteBuffer(direct),
            Binary.fromReusedByteArray(padded, 7, large.length),
            Binary.fromConstantByteArray(large),
            Binary.fromConstantByteBuffer(ByteBuffer.allocateDirect(0)),
            Binary.fromConstantByteArray(new byte[0]),
            Binary.fromString("short"),
            Binary.fromReusedByteArray(padded, 7, 5));
    BinaryDictionaryWriter writer =
        new BinaryDictionaryWriter(
            1 << 20,
            Encoding.PLAIN_DICTIONARY,
            Encoding.PLAIN_DICTIONARY,
            new HeapByteBufferAllocator());
    input.forEach(writer::writeBytes);

    assertThat(writer.getDictionarySize()).isEqualTo(4);
    List<Binary> decoded = new ArrayList<>();
    writer.fallBackAllValuesTo(new Recorder(decoded));
    assertThat(decoded).isEqualTo(input);
  }

  /** Collects the values a dictionary hands back when it falls back. */
  private static final class Recorder extends ValuesWriter {
    private final List<Binary> values;

    Recorder(List<Binary> values) {
      this.values = values;
    }

    @Override
    public void writeBytes(Binary value) {
      values.add(value.copy());
    }

    @Override
    public long getBufferedSize() {
      return 0;
    }

    @Override
    public BytesInput getBytes() {
      return BytesInput.empty();
    }

    @Override
    public Encoding getEncoding() {
      return Encoding.PLAIN;
    }

    @Override
    public void reset() {}

    @Override
    public long getAllocatedSize() {
      return 0;
    }

    @Override
    public String memUsageString(String prefix) {
      return prefix;
    }
  }

  private static String value(int k) {
    StringBuilder value = new StringBuilder();
    for (int c = 0; c < k % 60; c++) {
      value.append(ALPHABET.charAt((k * 31 + c * 7) % ALPHABET.length()));
    }
    return value.toString();
  }

  private static List<String> expected(int rows, LongFunction<String> text) {
    List<String> values = new ArrayList<>(rows);
    for (long i = 0; i < rows; i++) {
      values.add(text.apply(i));
    }
    return values;
  }

  private DataFile writeOne(String name, Configuration options, int rows, LongFunction<String> text)
      throws Exception {
    List<DataFile> files = write(name, options, rows, text);
    assertThat(files).hasSize(1);
    return files.get(0);
  }

  private List<DataFile> write(
      String name, Configuration options, int rows, LongFunction<String> text) throws Exception {
    return IdTextTables.write(dir.resolve(name), options, rows, text);
  }

  private org.apache.hadoop.fs.Path location(String table, DataFile file) {
    return IdTextTables.location(dir.resolve(table), file);
  }

  private List<String> readTexts(String table, DataFile file) throws Exception {
    return readTexts(table, file, 0);
  }

  private List<String> readTexts(String table, DataFile file, long firstId) throws Exception {
    List<String> texts = new ArrayList<>();
    try (ParquetReader<Group> reader =
        ParquetReader.builder(new GroupReadSupport(), location(table, file)).build()) {
      for (Group row = reader.read(); row != null; row = reader.read()) {
        assertThat(row.getLong("id", 0)).isEqualTo(firstId + texts.size());
        texts.add(row.getString("text", 0));
      }
    }
    return texts;
  }

  private List<ColumnChunkMetaData> textColumn(String table, DataFile file) throws Exception {
    List<ColumnChunkMetaData> columns = new ArrayList<>();
    for (BlockMetaData block : IdTextTables.footer(dir.resolve(table), file).getBlocks()) {
      columns.add(block.getColumns().get(1));
    }
    return columns;
  }
}
