package io.github.flinkdelta.core.parquet;

import java.io.IOException;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;

/** An output file that remembers how many bytes have reached storage. */
final class CountingOutputFile implements OutputFile {

  private final OutputFile delegate;
  private PositionOutputStream stream;

  CountingOutputFile(OutputFile delegate) {
    this.delegate = delegate;
  }

  long position() {
    try {
      return stream == null ? 0 : stream.getPos();
    } catch (IOException e) {
      return 0;
    }
  }

  @Override
  public PositionOutputStream create(long blockSizeHint) throws IOException {
    stream = delegate.create(blockSizeHint);
    return stream;
  }

  @Override
  public PositionOutputStream createOrOverwrite(long blockSizeHint) throws IOException {
    stream = delegate.createOrOverwrite(blockSizeHint);
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
}
