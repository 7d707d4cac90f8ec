/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.read;

import io.github.flinkdelta.core.deletion.DeletionVectorDescriptor;
import io.github.flinkdelta.core.kernel.AddAction;
import java.io.Serializable;
import java.net.URI;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.hadoop.fs.Path;

/**
 * One data file to read, as a version of its table lists it: where it is, its partition values, and
 * the deletion vector that hides some of its rows.
 *
 * @param path the file's absolute URI
 * @param size the file's size in bytes
 * @param modificationTime the file's modification time, in milliseconds since the epoch
 * @param partitionValues the file's partition values in Delta's string form, by physical column
 *     name (null values allowed)
 * @param deletionVector the rows of the file that are deleted, or null when none is
 * @param version the version that listed the file
 * @param minTimestamp the least value of the read's {@link WatermarkColumn} in the file, in
 *     milliseconds since the epoch, or {@link WatermarkColumn#UNKNOWN}
 */
@Internal
public record ReadFile(
    String path,
    long size,
    long modificationTime,
    Map<String, String> partitionValues,
    DeletionVectorDescriptor deletionVector,
    long version,
    long minTimestamp)
    implements Serializable {

  public ReadFile {
    Objects.requireNonNull(path, "path");
    partitionValues = Collections.unmodifiableMap(new HashMap<>(partitionValues));
  }

  /**
   * The file of {@code add}, an add action of {@code version} of the table at {@code root}, with
   * its least value of {@code watermark} (null when the read takes no watermarks).
   */
  public static ReadFile of(AddAction add, URI root, long version, WatermarkColumn watermark) {
    return new ReadFile(
        absolute(root, add.path()),
        add.size(),
        add.modificationTime(),
        add.partitionValues(),
        add.deletionVector().orElse(null),
        version,
        watermark == null ? WatermarkColumn.UNKNOWN : watermark.minMillis(add));
  }

  /** This file with its size, where the action that named it did not say it. */
  public ReadFile withSize(long bytes) {
    return new ReadFile(
        path, bytes, modificationTime, partitionValues, deletionVector, version, minTimestamp);
  }

  /** The absolute path of an add action's path, which is a URI, relative to the root or not. */
  static String absolute(URI root, String path) {
    Path file = new Path(URI.create(path));
    return (file.isAbsolute() ? file : new Path(new Path(root), file)).toString();
  }
}
