package io.github.flinkdelta.sink.table;

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

  /** The Hadoop options among {@code options}, without their prefix. */
  public static Map<String, String> from(Map<String, String> options) {
    Map<String, String> hadoop = new HashMap<>();
    options.forEach(
        (key, value) -> {
          if (key.startsWith(PREFIX)) {
            hadoop.put(key.substring(PREFIX.length()), value);
          }
        });
    return Map.copyOf(hadoop);
  }
}
