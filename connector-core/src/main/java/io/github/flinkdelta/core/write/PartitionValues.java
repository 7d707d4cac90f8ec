/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.write;

import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.LogicalType;

/**
 * Delta's string form of partition values, and the Hive-style directory names built from them. The
 * formats are the ones Delta Kernel writes, so values written here read back the same.
 */
@Internal
public final class PartitionValues {

  /** The directory name of a null partition value. */
  public static final String NULL_DIRECTORY = "__HIVE_DEFAULT_PARTITION__";

  /** Timestamps (UTC): {@code 2024-05-01T10:15:30.000000Z}. */
  public static final DateTimeFormatter TIMESTAMP =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'");

  /** Timestamps without time zone: {@code 2024-05-01 10:15:30.000000}. */
  public static final DateTimeFormatter TIMESTAMP_NTZ =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS");

  private static final String ESCAPED = "\"#%'*/:=?\\\u007F{[]^";

  private PartitionValues() {}

  /** Delta's string form of a non-null partition value of the given type. */
  public static String format(Object value, LogicalType type) {
    return switch (type.getTypeRoot()) {
      case BOOLEAN, TINYINT, SMALLINT, INTEGER, BIGINT, FLOAT, DOUBLE -> String.valueOf(value);
      case CHAR, VARCHAR -> value.toString();
      case DECIMAL -> ((DecimalData) value).toBigDecimal().toString();
      case DATE -> LocalDate.ofEpochDay((Integer) value).toString();
      case TIMESTAMP_WITHOUT_TIME_ZONE ->
          ((TimestampData) value).toLocalDateTime().format(TIMESTAMP_NTZ);
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE ->
          LocalDateTime.ofInstant(((TimestampData) value).toInstant(), ZoneOffset.UTC)
              .format(TIMESTAMP);
      case BINARY, VARBINARY -> new String((byte[]) value, StandardCharsets.UTF_8);
      default ->
          throw new IllegalArgumentException("type " + type + " cannot be a partition column");
    };
  }

  /** The directory of one partition column: {@code name=escaped(value)}. */
  public static String directory(String column, String value) {
    return escape(column) + "=" + (value == null ? NULL_DIRECTORY : escape(value));
  }

  /** Escapes the characters that may not appear in a path segment, as Hive and Delta do. */
  static String escape(String text) {
    StringBuilder out = null;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if ((c >= 0x01 && c <= 0x1F) || ESCAPED.indexOf(c) >= 0) {
        if (out == null) {
          out = new StringBuilder(text.length() + 8).append(text, 0, i);
        }
        out.append('%').append(String.format("%02X", (int) c));
      } else if (out != null) {
        out.append(c);
      }
    }
    return out == null ? text : out.toString();
  }

  /**
   * The value a directory name {@code name=escaped} holds, {@link #escape} undone; null for {@link
   * #NULL_DIRECTORY}.
   */
  public static String unescape(String escaped) {
    if (NULL_DIRECTORY.equals(escaped)) {
      return null;
    }
    StringBuilder out = new StringBuilder(escaped.length());
    for (int i = 0; i < escaped.length(); i++) {
      char c = escaped.charAt(i);
      if (c == '%' && i + 2 < escaped.length()) {
        int code = Integer.parseInt(escaped.substring(i + 1, i + 3), 16);
        out.append((char) code);
        i += 2;
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  /**
   * The partition values the directories of {@code logPath} (a data file's path as the log writes
   * it: a URI, relative or absolute) name, {@code column=value} each, by column; empty when none
   * does.
   */
  public static java.util.Map<String, String> fromPath(String logPath) {
    java.util.Map<String, String> values = new java.util.HashMap<>();
    String path;
    try {
      path = new java.net.URI(logPath).getPath();
    } catch (java.net.URISyntaxException e) {
      path = logPath;
    }
    String[] segments = path.split("/");
    for (int i = 0; i < segments.length - 1; i++) {
      int equals = segments[i].indexOf('=');
      if (equals > 0) {
        values.put(
            unescape(segments[i].substring(0, equals)),
            unescape(segments[i].substring(equals + 1)));
      }
    }
    return values;
  }

  /** Whether {@code value} is an empty string or binary, which Delta stores as null. */
  static boolean isEmpty(Object value) {
    return (value instanceof StringData string && string.toBytes().length == 0)
        || (value instanceof byte[] bytes && bytes.length == 0);
  }
}
