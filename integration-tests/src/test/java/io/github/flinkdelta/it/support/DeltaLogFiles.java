/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.delta.kernel.Snapshot;
import io.delta.kernel.TableManager;
import io.delta.kernel.defaults.engine.DefaultEngine;
import io.github.flinkdelta.core.storage.HadoopConfigurations;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.schema.MessageType;

/**
 * The actions of a table's commits as its {@code _delta_log/<version>.json} files hold them, read
 * as JSON without Kernel, and the table's latest snapshot as Kernel reads it.
 */
public final class DeltaLogFiles {

  private static final ObjectMapper JSON = new ObjectMapper();

  private DeltaLogFiles() {}

  /** The table's latest snapshot. */
  public static Snapshot snapshot(String table) {
    return TableManager.loadSnapshot(table)
        .build(DefaultEngine.create(HadoopConfigurations.of(Map.of())));
  }

  /** The versions whose commit files the log holds, in order. */
  public static List<Long> versions(String table) {
    TreeSet<Long> versions = new TreeSet<>();
    try (Stream<Path> files = Files.list(log(table))) {
      files
          .map(p -> p.getFileName().toString())
          .filter(n -> n.matches("\\d{20}\\.json"))
          .forEach(n -> versions.add(Long.parseLong(n.substring(0, 20))));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return List.copyOf(versions);
  }

  /** Every action of {@code version}, in the order of its commit file. */
  public static List<JsonNode> actions(String table, long version) {
    List<JsonNode> actions = new ArrayList<>();
    try {
      for (String line :
          Files.readAllLines(log(table).resolve(String.format("%020d.json", version)))) {
        if (!line.isBlank()) {
          actions.add(JSON.readTree(line));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return actions;
  }

  /** The actions of {@code version} of one kind ({@code add}, {@code metaData}, {@code txn}...). */
  public static List<JsonNode> actions(String table, long version, String kind) {
    return actions(table, version).stream().filter(a -> a.has(kind)).map(a -> a.get(kind)).toList();
  }

  /** The {@code add} actions of every version from {@code fromVersion} on. */
  public static List<JsonNode> addsFrom(String table, long fromVersion) {
    List<JsonNode> adds = new ArrayList<>();
    for (long version : versions(table)) {
      if (version >= fromVersion) {
        adds.addAll(actions(table, version, "add"));
      }
    }
    return adds;
  }

  /** The app ids of every transaction the log records. */
  public static TreeSet<String> appIds(String table) {
    TreeSet<String> ids = new TreeSet<>();
    for (long version : versions(table)) {
      actions(table, version, "txn").forEach(txn -> ids.add(txn.get("appId").asText()));
    }
    return ids;
  }

  /** The statistics of an {@code add} action, parsed. */
  public static JsonNode stats(JsonNode add) {
    try {
      return JSON.readTree(add.get("stats").asText());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The rows of the files {@code actions} (adds or removes, with their statistics) name that no
   * deletion vector deletes.
   */
  public static long liveRows(List<JsonNode> actions) {
    long live = 0;
    for (JsonNode action : actions) {
      JsonNode vector = action.get("deletionVector");
      live +=
          stats(action).get("numRecords").asLong()
              - (vector == null || vector.isNull() ? 0 : vector.get("cardinality").asLong());
    }
    return live;
  }

  /** The Parquet schema in the footer of the data file an {@code add} action names. */
  public static MessageType footer(String table, JsonNode add) {
    org.apache.hadoop.fs.Path file =
        new org.apache.hadoop.fs.Path(URI.create(table + "/" + add.get("path").asText()));
    try (ParquetFileReader reader =
        ParquetFileReader.open(HadoopInputFile.fromPath(file, new Configuration(false)))) {
      return reader.getFooter().getFileMetaData().getSchema();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Path log(String table) {
    return Path.of(URI.create(table)).resolve("_delta_log");
  }
}
