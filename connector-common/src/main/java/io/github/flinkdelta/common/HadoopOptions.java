/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.common;

import java.util.HashMap;
import java.util.Map;
import org.apache.flink.annotation.Internal;

/**
 * Storage options of SQL tables and catalogs: every option prefixed {@code hadoop.} goes to
 * Hadoop's file systems without the prefix, e.g. {@code 'hadoop.fs.s3a.endpoint'}. Keys that name a
 * secret (such as {@code hadoop.fs.s3a.secret.key}) are masked by Flink like any other.
 */
@Internal
public final class HadoopOptions {

  /** The prefix that marks an option for Hadoop. */
  public static final String PREFIX = "hadoop.";

  private HadoopOptions() {}

  /**
   * The Hadoop options among {@code options}, without their prefix.
   *
   * @param owner what the options belong to, for messages, e.g. {@code "Table main.db.orders"}
   * @throws IllegalArgumentException when a value names a variable the cluster does not allow
   *     ({@link EnvironmentReferences})
   */
  public static Map<String, String> from(String owner, Map<String, String> options) {
    EnvironmentReferences references = EnvironmentReferences.ofCluster();
    Map<String, String> hadoop = new HashMap<>();
    options.forEach(
        (key, value) -> {
          if (key.startsWith(PREFIX)) {
            references.check(owner, key, value);
            hadoop.put(key.substring(PREFIX.length()), value);
          }
        });
    return Map.copyOf(hadoop);
  }
}
