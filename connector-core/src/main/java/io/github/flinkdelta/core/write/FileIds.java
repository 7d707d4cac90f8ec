/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.write;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import org.apache.flink.annotation.Internal;

/**
 * A data file's id: a 64-bit hash of its path relative to the table root, not URI-encoded. The key
 * index of an upsert sink stores a row's file as this id, eight bytes instead of a path; the
 * committer maps ids back to the table's files and refuses two live files of one id.
 */
@Internal
public final class FileIds {

  private static final long FNV_OFFSET = 0xcbf29ce484222325L;
  private static final long FNV_PRIME = 0x100000001b3L;

  private FileIds() {}

  /** The id of the file at {@code relativePath} (relative to the table root, not URI-encoded). */
  public static long of(String relativePath) {
    long hash = FNV_OFFSET;
    for (byte b : relativePath.getBytes(StandardCharsets.UTF_8)) {
      hash ^= b & 0xff;
      hash *= FNV_PRIME;
    }
    return hash;
  }

  /**
   * The path, relative to the table root and decoded, of a file as an add action names it: a
   * URI-encoded path relative to the root, or an absolute URI under it.
   */
  public static String relativePath(String logPath, URI tableRoot) {
    URI uri;
    try {
      uri = new URI(logPath);
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("Not a URI in the Delta log: " + logPath, e);
    }
    if (!uri.isAbsolute() && !logPath.startsWith("/")) {
      return uri.getPath();
    }
    String root = tableRoot.getPath();
    String prefix = root.endsWith("/") ? root : root + "/";
    String path = uri.getPath();
    return path.startsWith(prefix) ? path.substring(prefix.length()) : path;
  }
}
