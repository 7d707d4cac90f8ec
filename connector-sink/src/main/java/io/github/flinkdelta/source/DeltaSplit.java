package io.github.flinkdelta.source;

import io.github.flinkdelta.core.read.ReadFile;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.SourceSplit;

/**
 * One data file of one version to read, and how far a reader got: the position (row index in the
 * file) of the next row to read. Rows before it were emitted before the checkpoint that holds this
 * split, so a restored reader goes on from there and emits each row once.
 *
 * @param file the file, with the deletion vector the version gave it
 * @param position the position of the next row to read
 */
@Internal
public record DeltaSplit(ReadFile file, long position) implements SourceSplit {

  public DeltaSplit {
    Objects.requireNonNull(file, "file");
    if (position < 0) {
      throw new IllegalArgumentException("negative split position " + position);
    }
  }

  /** The split of a whole file. */
  public static DeltaSplit of(ReadFile file) {
    return new DeltaSplit(file, 0);
  }

  /** This split, to be read from {@code next} on. */
  public DeltaSplit at(long next) {
    return new DeltaSplit(file, next);
  }

  /** The version and the file: a file is added once per version. */
  @Override
  public String splitId() {
    return file.version() + ":" + file.path();
  }
}
