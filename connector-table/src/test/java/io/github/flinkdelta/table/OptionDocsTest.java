/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkdelta.catalog.UnityCatalogCatalogFactory;
import io.github.flinkdelta.common.HadoopOptions;
import io.github.flinkdelta.sink.dynamic.DynamicSinkOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.description.HtmlFormatter;
import org.apache.flink.table.factories.Factory;
import org.junit.jupiter.api.Test;

/**
 * {@code docs/sql-options.md} is generated from the factories' {@link ConfigOption}s. This test
 * fails when they differ; run it with {@code -Ddocs.update=true} to rewrite the file.
 */
class OptionDocsTest {

  private static final Path DOCS = Path.of("..", "docs", "sql-options.md");

  @Test
  void theOptionReferenceMatchesTheCode() throws IOException {
    String generated =
        "# SQL option reference\n\n"
            + "Generated from the connector's `ConfigOption`s by `OptionDocsTest`; do not edit.\n\n"
            + section("Table connector `'connector' = 'delta'`", new DeltaDynamicTableFactory())
            + "\n"
            + section("Catalog `'type' = 'unitycatalog'`", new UnityCatalogCatalogFactory())
            + "\nBoth pass options prefixed `"
            + HadoopOptions.PREFIX
            + "` to Hadoop's file systems without the prefix, e.g. `'hadoop.fs.s3a.endpoint'`."
            + " Keys that name a secret are masked by Flink.\n\n"
            + section(
                "The dynamic sink in the DataStream API only (`DeltaSink.dynamic`)",
                Set.of(),
                Set.of(DynamicSinkOptions.TABLE_EVENTS))
            + "\nThe DataStream API's dynamic sink also takes every `sink.*` option of the table"
            + " connector above, for all its tables or, through `tableOption`, for one.\n";
    if (Boolean.getBoolean("docs.update")) {
      Files.createDirectories(DOCS.getParent());
      Files.writeString(DOCS, generated);
    }
    assertThat(Files.exists(DOCS))
        .as("%s is missing: run OptionDocsTest with -Ddocs.update=true", DOCS)
        .isTrue();
    assertThat(Files.readString(DOCS))
        .as("%s differs from the options in code: run OptionDocsTest with -Ddocs.update=true", DOCS)
        .isEqualTo(generated);
  }

  private static String section(String title, Factory factory) {
    return section(title, factory.requiredOptions(), factory.optionalOptions());
  }

  private static String section(
      String title, Set<ConfigOption<?>> required, Set<ConfigOption<?>> optional) {
    Set<ConfigOption<?>> options = new HashSet<>(required);
    options.addAll(optional);
    List<ConfigOption<?>> sorted =
        options.stream().sorted(Comparator.comparing(ConfigOption::key)).toList();
    StringBuilder out =
        new StringBuilder(
            "## " + title + "\n\n| key | required | default | meaning |\n|---|---|---|---|\n");
    for (ConfigOption<?> option : sorted) {
      out.append("| `")
          .append(option.key())
          .append("` | ")
          .append(required.contains(option) ? "yes" : "no")
          .append(" | ")
          .append(option.hasDefaultValue() ? defaultValue(option.defaultValue()) : "none")
          .append(" | ")
          .append(new HtmlFormatter().format(option.description()).replace("|", "\\|"))
          .append(" |\n");
    }
    return out.toString();
  }

  /** A default as the README states it: durations in their unit, no limit as "unlimited". */
  private static String defaultValue(Object value) {
    if (value instanceof Long number && number == Long.MAX_VALUE
        || value instanceof Integer integer && integer == Integer.MAX_VALUE) {
      return "unlimited";
    }
    if (value instanceof java.time.Duration duration) {
      return "`" + org.apache.flink.util.TimeUtils.formatWithHighestUnit(duration) + "`";
    }
    return "`" + value + "`";
  }
}
