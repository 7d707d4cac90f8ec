/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sparktestkit;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * One message between {@link SparkSql} and the child's {@link SparkSqlServer}, sent as one line: a
 * tag, then each field after a tab. A field escapes backslash, tab, line feed and carriage return
 * as {@code \\}, {@code \t}, {@code \n} and {@code \r}, so no field holds a tab or ends a line; a
 * null field is sent as {@code \N}, which no escaped string can be. The client needs only the JDK
 * to read them, and a line tells where each message ends however the strings in it look.
 *
 * <p>The messages: {@code READY <spark version>} once the session is up; then, for each {@code SQL
 * <statement>} the client sends, a {@code ROW <value>...} per result row followed by {@code DONE},
 * or {@code ERROR <exception class> <error condition> <message>}; {@code STOP} asks the child to
 * end.
 *
 * @param tag what the message is, one of the constants here
 * @param fields the message's values, some possibly null
 */
record Frame(String tag, List<String> fields) {

  static final String READY = "READY";
  static final String SQL = "SQL";
  static final String ROW = "ROW";
  static final String DONE = "DONE";
  static final String ERROR = "ERROR";
  static final String STOP = "STOP";

  private static final String NULL = "\\N";

  Frame {
    fields = Collections.unmodifiableList(new ArrayList<>(fields));
  }

  static Frame of(String tag, String... fields) {
    return new Frame(tag, Arrays.asList(fields));
  }

  /** The line that carries this message, without its line feed. */
  String encode() {
    StringBuilder line = new StringBuilder(tag);
    for (String field : fields) {
      line.append('\t');
      if (field == null) {
        line.append(NULL);
      } else {
        escape(field, line);
      }
    }
    return line.toString();
  }

  /**
   * The message a line carries.
   *
   * @throws IllegalArgumentException if the line is not one {@link #encode} writes
   */
  static Frame decode(String line) {
    String[] parts = line.split("\t", -1);
    List<String> fields = new ArrayList<>(parts.length - 1);
    for (int i = 1; i < parts.length; i++) {
      fields.add(parts[i].equals(NULL) ? null : unescape(parts[i], line));
    }
    return new Frame(parts[0], fields);
  }

  private static void escape(String value, StringBuilder out) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      switch (c) {
        case '\\' -> out.append("\\\\");
        case '\t' -> out.append("\\t");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        default -> out.append(c);
      }
    }
  }

  private static String unescape(String field, String line) {
    StringBuilder value = new StringBuilder(field.length());
    for (int i = 0; i < field.length(); i++) {
      char c = field.charAt(i);
      if (c != '\\') {
        value.append(c);
        continue;
      }
      if (++i == field.length()) {
        throw new IllegalArgumentException("Field ends in a lone backslash: " + line);
      }
      value.append(
          switch (field.charAt(i)) {
            case '\\' -> '\\';
            case 't' -> '\t';
            case 'n' -> '\n';
            case 'r' -> '\r';
            default ->
                throw new IllegalArgumentException(
                    "Unknown escape \\" + field.charAt(i) + " in: " + line);
          });
    }
    return value.toString();
  }
}
