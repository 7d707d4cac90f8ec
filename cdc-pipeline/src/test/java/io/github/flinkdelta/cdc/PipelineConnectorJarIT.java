/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.cdc;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Test;

/**
 * What the jar for Flink CDC's {@code lib/} holds: the sink's factory where Flink CDC looks for it,
 * no class of Flink, Flink CDC or logging, and no library outside our relocated namespace but those
 * the SQL connector's jar allows too.
 */
class PipelineConnectorJarIT {

  private static final List<String> ALLOWED =
      List.of(
          "io/github/flinkdelta/",
          "io/delta/",
          "io/unitycatalog/",
          "org/apache/hadoop/",
          "org/apache/spark/sql/delta/",
          "com/github/luben/zstd/",
          "org/xerial/snappy/");

  @Test
  void holdsTheFactoryAndTheConnectorButNeitherFlinkNorFlinkCdcNorStrayLibraries()
      throws IOException {
    Path path = Path.of(System.getProperty("shaded.jar"));
    try (JarFile jar = new JarFile(path.toFile())) {
      String factories =
          new String(
              jar.getInputStream(
                      jar.getEntry(
                          "META-INF/services/org.apache.flink.cdc.common.factories.Factory"))
                  .readAllBytes(),
              StandardCharsets.UTF_8);
      assertThat(factories.strip()).isEqualTo(DeltaDataSinkFactory.class.getName());
      List<String> classes =
          jar.stream().map(ZipEntry::getName).filter(name -> name.endsWith(".class")).toList();
      assertThat(classes)
          .contains("io/github/flinkdelta/cdc/DeltaDataSinkFactory.class")
          .contains("io/github/flinkdelta/sink/dynamic/DynamicDeltaSink.class")
          .noneMatch(name -> name.startsWith("org/apache/flink/"))
          .noneMatch(name -> name.startsWith("org/slf4j/"))
          .noneMatch(name -> name.startsWith("org/apache/logging/"));
      assertThat(classes.stream().filter(name -> ALLOWED.stream().noneMatch(name::startsWith)))
          .as("classes outside our package and the allowed namespaces")
          .isEmpty();
    }
    System.out.printf(
        "flink-cdc-pipeline-connector-delta: %.1f MB%n", Files.size(path) / 1024.0 / 1024.0);
  }
}
