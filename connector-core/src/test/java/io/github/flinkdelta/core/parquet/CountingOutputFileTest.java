/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.parquet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The size a data file's {@code add} action records is the bytes that reached storage, counted by
 * the sink itself: a storage stream that cannot tell its position does not turn into a size of 0,
 * and a failing write fails the file.
 */
class CountingOutputFileTest {

  @TempDir Path dir;

  @Test
  void sizeIsTheBytesWrittenWhenTheStreamCannotTellItsPosition() throws IOException {
    Path file = dir.resolve("part.parquet");
    CountingOutputFile output = new CountingOutputFile(new LocalFile(file, false));

    try (PositionOutputStream out = output.create(0)) {
      out.write(new byte[1000], 10, 500);
      out.write(7);
    }

    assertThat(output.position()).isEqualTo(501).isEqualTo(Files.size(file));
  }

  @Test
  void aFailedWriteFailsTheFileInsteadOfCountingIt() throws IOException {
    CountingOutputFile output =
        new CountingOutputFile(new LocalFile(dir.resolve("broken.parquet"), true));

    PositionOutputStream out = output.create(0);
    out.write(new byte[10]);
    assertThatThrownBy(() -> out.write(new byte[10])).isInstanceOf(IOException.class);
    assertThat(output.position()).isEqualTo(10);
  }

  /**
   * A local file whose stream never knows its position and can fail every write after the first.
   */
  private record LocalFile(Path path, boolean failAfterFirstWrite) implements OutputFile {

    @Override
    public PositionOutputStream create(long blockSizeHint) throws IOException {
      OutputStream out = Files.newOutputStream(path);
      return new PositionOutputStream() {
        private boolean written;

        @Override
        public long getPos() throws IOException {
          throw new IOException("position unknown");
        }

        @Override
        public void write(int b) throws IOException {
          write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
          if (written && failAfterFirstWrite) {
            throw new IOException("disk full");
          }
          out.write(b, off, len);
          written = true;
        }

        @Override
        public void close() throws IOException {
          out.close();
        }
      };
    }

    @Override
    public PositionOutputStream createOrOverwrite(long blockSizeHint) throws IOException {
      return create(blockSizeHint);
    }

    @Override
    public boolean supportsBlockSize() {
      return false;
    }

    @Override
    public long defaultBlockSize() {
      return 0;
    }

    @Override
    public String getPath() {
      return path.toString();
    }
  }
}
