/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.parquet;

import java.io.IOException;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;

/**
 * An output file that counts the bytes handed to storage itself, so that the size a commit records
 * never depends on the storage stream reporting its position: a failing write fails the file, and
 * there is no position to get wrong.
 */
final class CountingOutputFile implements OutputFile {

  private final OutputFile delegate;
  private CountingStream stream;

  CountingOutputFile(OutputFile delegate) {
    this.delegate = delegate;
  }

  /** The bytes written to the storage stream so far. */
  long position() {
    return stream == null ? 0 : stream.count;
  }

  @Override
  public PositionOutputStream create(long blockSizeHint) throws IOException {
    stream = new CountingStream(delegate.create(blockSizeHint));
    return stream;
  }

  @Override
  public PositionOutputStream createOrOverwrite(long blockSizeHint) throws IOException {
    stream = new CountingStream(delegate.createOrOverwrite(blockSizeHint));
    return stream;
  }

  @Override
  public boolean supportsBlockSize() {
    return delegate.supportsBlockSize();
  }

  @Override
  public long defaultBlockSize() {
    return delegate.defaultBlockSize();
  }

  @Override
  public String getPath() {
    return delegate.getPath();
  }

  private static final class CountingStream extends PositionOutputStream {

    private final PositionOutputStream out;
    private long count;

    CountingStream(PositionOutputStream out) {
      this.out = out;
    }

    @Override
    public long getPos() {
      return count;
    }

    @Override
    public void write(int b) throws IOException {
      out.write(b);
      count++;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len);
      count += len;
    }

    @Override
    public void flush() throws IOException {
      out.flush();
    }

    @Override
    public void close() throws IOException {
      out.close();
    }
  }
}
