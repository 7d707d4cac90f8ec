/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.dynamic;

import java.io.Serializable;
import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.annotation.Internal;

/**
 * A table name of fixed text and placeholders ({@code "{db}.{table}"}) that each element of a
 * generator fills: the ready generators (here and in the Flink CDC module) name their tables with
 * one.
 */
@Internal
public final class TableNameTemplate implements Serializable {

  private static final long serialVersionUID = 1L;

  private static final Pattern PLACEHOLDER = Pattern.compile("\\{([a-z_]+)}");

  private final String template;

  private TableNameTemplate(String template) {
    this.template = template;
  }

  /**
   * {@code template}, whose placeholders must be among {@code placeholders}, which {@code parts}
   * describes in the refusal of another (e.g. "the fields of a Debezium event's source").
   */
  public static TableNameTemplate of(String template, List<String> placeholders, String parts) {
    Objects.requireNonNull(template, "template");
    Matcher found = PLACEHOLDER.matcher(template);
    while (found.find()) {
      if (!placeholders.contains(found.group(1))) {
        throw new IllegalArgumentException(
            String.format(
                "Table name template '%s' has the placeholder {%s}; it may use %s, %s",
                template,
                found.group(1),
                String.join(", ", placeholders.stream().map(p -> "{" + p + "}").toList()),
                parts));
      }
    }
    return new TableNameTemplate(template);
  }

  /**
   * The name with each placeholder filled by {@code parts}; a part it gives as null or empty is
   * refused, naming {@code element} (what the part was looked up in).
   */
  public String fill(UnaryOperator<String> parts, String element) {
    Matcher found = PLACEHOLDER.matcher(template);
    StringBuilder name = new StringBuilder();
    while (found.find()) {
      String part = parts.apply(found.group(1));
      if (part == null || part.isEmpty()) {
        throw new IllegalArgumentException(
            String.format(
                "Table name template '%s' uses {%s}, which %s does not have",
                template, found.group(1), element));
      }
      found.appendReplacement(name, Matcher.quoteReplacement(part));
    }
    found.appendTail(name);
    return name.toString();
  }

  @Override
  public String toString() {
    return template;
  }
}
