/*
 * Copyright 2026 the flink-delta authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
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
