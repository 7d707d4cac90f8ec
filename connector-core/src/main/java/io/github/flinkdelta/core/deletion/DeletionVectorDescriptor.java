/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.deletion;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Objects;
import java.util.UUID;
import org.apache.flink.annotation.Internal;
import org.apache.hadoop.fs.Path;

/**
 * The {@code deletionVector} field of a Delta {@code add} or {@code remove} action: where the
 * deletion vector of a data file is stored and how many rows it removes.
 *
 * @param storageType {@code u} (a file under the table root named by a UUID), {@code i} (inline) or
 *     {@code p} (a file at an absolute path)
 * @param pathOrInlineDv for {@code u} an optional random prefix followed by the Z85-encoded UUID,
 *     for {@code i} the Z85-encoded bitmap, for {@code p} the file's absolute URI
 * @param offset where the DV's record starts in its file; null when absent, always null for {@code
 *     i}, and read as 0 when absent otherwise
 * @param sizeInBytes the size of the serialized bitmap (before Z85 encoding when inline)
 * @param cardinality the number of rows the DV removes
 */
@Internal
public record DeletionVectorDescriptor(
    String storageType, String pathOrInlineDv, Integer offset, int sizeInBytes, long cardinality) {

  /** A file under the table root, named by a UUID. */
  public static final String UUID_PATH = "u";

  /** The bitmap itself, Z85-encoded. */
  public static final String INLINE = "i";

  /** A file at an absolute path. */
  public static final String ABSOLUTE_PATH = "p";

  public DeletionVectorDescriptor {
    Objects.requireNonNull(storageType, "storageType");
    Objects.requireNonNull(pathOrInlineDv, "pathOrInlineDv");
    switch (storageType) {
      case UUID_PATH ->
          Z85.decodeUuid(
              requireLength(pathOrInlineDv, Z85.ENCODED_UUID_LENGTH)
                  .substring(pathOrInlineDv.length() - Z85.ENCODED_UUID_LENGTH));
      case INLINE -> {
        if (offset != null) {
          throw new IllegalArgumentException("An inline deletion vector has no offset: " + offset);
        }
        Z85.decodeBytes(pathOrInlineDv, sizeInBytes);
      }
      case ABSOLUTE_PATH -> requireLength(pathOrInlineDv, 1);
      default ->
          throw new IllegalArgumentException(
              "Unknown deletion vector storage type '" + storageType + "', expected u, i or p");
    }
    if (offset != null && offset < 0) {
      throw new IllegalArgumentException("Negative deletion vector offset " + offset);
    }
    if (sizeInBytes < 0 || cardinality < 0 || (cardinality > 0 && sizeInBytes == 0)) {
      throw new IllegalArgumentException(
          String.format(
              "Invalid deletion vector size %d for cardinality %d", sizeInBytes, cardinality));
    }
  }

  /**
   * A DV in the file {@code <table root>/<randomPrefix>/deletion_vector_<id>.bin}.
   *
   * @param randomPrefix letters and digits only; empty for a file directly under the table root
   * @param offset where the DV's record (its size) starts in the file
   */
  public static DeletionVectorDescriptor onDisk(
      String randomPrefix, UUID id, int offset, int sizeInBytes, long cardinality) {
    if (!randomPrefix.chars().allMatch(c -> c < 128 && Character.isLetterOrDigit(c))) {
      throw new IllegalArgumentException(
          "A deletion vector's random prefix is a directory name of letters and digits, not '"
              + randomPrefix
              + "'");
    }
    return new DeletionVectorDescriptor(
        UUID_PATH, randomPrefix + Z85.encodeUuid(id), offset, sizeInBytes, cardinality);
  }

  /** A DV kept in the log itself; {@code bitmapData} is a {@link RowPositions#toBitmapData()}. */
  public static DeletionVectorDescriptor inline(byte[] bitmapData, long cardinality) {
    return new DeletionVectorDescriptor(
        INLINE, Z85.encodeBytes(bitmapData), null, bitmapData.length, cardinality);
  }

  /**
   * The id of the DV within the table: the storage type and {@code pathOrInlineDv}, then
   * {@code @<offset>} when an offset is present. With the data file's path it names a logical file.
   */
  public String uniqueId() {
    String id = storageType + pathOrInlineDv;
    return offset == null ? id : id + "@" + offset;
  }

  public boolean isInline() {
    return INLINE.equals(storageType);
  }

  /**
   * The file the DV is stored in.
   *
   * @param tableRoot the table's root location, a URI or an absolute path, with or without a
   *     trailing slash; not used for {@code p}
   * @throws IllegalStateException for an inline DV, which has no file
   */
  public String absolutePath(String tableRoot) {
    switch (storageType) {
      case UUID_PATH -> {
        int prefixLength = pathOrInlineDv.length() - Z85.ENCODED_UUID_LENGTH;
        String prefix = pathOrInlineDv.substring(0, prefixLength);
        UUID id = Z85.decodeUuid(pathOrInlineDv.substring(prefixLength));
        Path dir = prefix.isEmpty() ? new Path(tableRoot) : new Path(tableRoot, prefix);
        return new Path(dir, DeletionVectorWriter.fileName(id)).toString();
      }
      case ABSOLUTE_PATH -> {
        // Like the path of an add action, the path is a URI: its escapes are decoded, as Kernel
        // does when it reads the file.
        try {
          URI uri = new URI(pathOrInlineDv);
          if (!uri.isAbsolute()) {
            throw new IllegalStateException(
                "The path of a 'p' deletion vector is not an absolute URI: " + pathOrInlineDv);
          }
          return new Path(uri).toString();
        } catch (URISyntaxException e) {
          throw new IllegalStateException(
              "The path of a 'p' deletion vector is not a URI: " + pathOrInlineDv, e);
        }
      }
      default -> throw new IllegalStateException("An inline deletion vector has no file");
    }
  }

  private static String requireLength(String value, int minimum) {
    if (value.length() < minimum) {
      throw new IllegalArgumentException(
          String.format(
              "A deletion vector's path needs at least %d characters: '%s'", minimum, value));
    }
    return value;
  }
}
