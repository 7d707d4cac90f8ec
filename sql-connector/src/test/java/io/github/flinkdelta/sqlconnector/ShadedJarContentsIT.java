/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sqlconnector;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Test;

/** What the shaded jar holds: nothing unrelocated outside the allowed namespaces. */
class ShadedJarContentsIT {

  /**
   * Packages a class may sit in without relocation: ours; Delta's and Unity Catalog's, which name
   * no library a Flink job brings; Hadoop's client, which shades its own dependencies under {@code
   * org.apache.hadoop.shaded}; one Delta class Delta keeps in Spark's namespace; and zstd-jni and
   * snappy-java, whose native code is bound to their package names.
   */
  private static final List<String> ALLOWED =
      List.of(
          "io/github/flinkdelta/",
          "io/delta/",
          "io/unitycatalog/",
          "org/apache/hadoop/",
          "org/apache/spark/sql/delta/",
          "com/github/luben/zstd/",
          "org/xerial/snappy/");

  static Path jar() {
    return Path.of(System.getProperty("shaded.jar"));
  }

  @Test
  void everyClassIsOursOrRelocatedOrAllowed() throws IOException {
    List<String> stray;
    try (JarFile jar = new JarFile(jar().toFile())) {
      stray =
          jar.stream()
              .map(ZipEntry::getName)
              .filter(name -> name.endsWith(".class"))
              .filter(name -> ALLOWED.stream().noneMatch(name::startsWith))
              .toList();
    }
    assertThat(stray).as("classes outside our package and the allowed namespaces").isEmpty();
  }

  @Test
  void bundlesNeitherFlinkNorLoggingAndMergesTheFactories() throws IOException {
    try (JarFile jar = new JarFile(jar().toFile())) {
      assertThat(jar.stream().map(ZipEntry::getName))
          .noneMatch(name -> name.startsWith("org/apache/flink/"))
          .noneMatch(name -> name.startsWith("org/slf4j/"))
          .noneMatch(name -> name.startsWith("org/apache/logging/"));
      String factories =
          new String(
              jar.getInputStream(
                      jar.getEntry("META-INF/services/org.apache.flink.table.factories.Factory"))
                  .readAllBytes(),
              StandardCharsets.UTF_8);
      assertThat(factories)
          .contains("io.github.flinkdelta.table.DeltaDynamicTableFactory")
          .contains("io.github.flinkdelta.catalog.UnityCatalogCatalogFactory");
    }
    System.out.printf(
        "flink-sql-connector-delta: %.1f MB (%s)%n",
        Files.size(jar()) / 1024.0 / 1024.0, jar().getFileName());
  }
}
