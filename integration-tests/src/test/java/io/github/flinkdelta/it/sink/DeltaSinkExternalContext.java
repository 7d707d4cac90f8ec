/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.sink;

import io.github.flinkdelta.it.support.ComparableRow;
import io.github.flinkdelta.sink.DeltaSink;
import io.github.flinkdelta.sink.DeltaSinkBuilder;
import java.net.URL;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Supplier;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.connector.testframe.external.ExternalSystemDataReader;
import org.apache.flink.connector.testframe.external.sink.DataStreamSinkV2ExternalContext;
import org.apache.flink.connector.testframe.external.sink.TestingSinkSettings;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;

/**
 * The external system of Flink's sink test suite: one Delta table per test case, written by {@link
 * DeltaSink} and read back through Kernel. Where the table lives (a path, or a Unity Catalog
 * managed table) is given by a target and a reader of its current rows.
 */
final class DeltaSinkExternalContext implements DataStreamSinkV2ExternalContext<ComparableRow> {

  /** Points a sink builder at this test case's table. */
  interface Target {
    void applyTo(DeltaSinkBuilder builder);
  }

  private static final int BUCKETS = 4;

  private final String description;
  private final Target target;
  private final Supplier<List<List<Object>>> tableRows;
  private long nextId;

  DeltaSinkExternalContext(
      String description, Target target, Supplier<List<List<Object>>> tableRows) {
    this.description = description;
    this.target = target;
    this.tableRows = tableRows;
  }

  @Override
  public Sink<ComparableRow> createSink(TestingSinkSettings settings) {
    DeltaSinkBuilder builder =
        DeltaSink.builder().rowType(ComparableRow.TYPE).partitionColumns("bucket");
    target.applyTo(builder);
    // DeltaSink takes RowData; every ComparableRow is one.
    @SuppressWarnings("unchecked")
    Sink<ComparableRow> sink = (Sink<ComparableRow>) (Sink<?>) builder.build();
    return sink;
  }

  /**
   * Reads the rows committed since the previous poll: the table's rows minus, as a multiset, the
   * rows already returned. A duplicate committed later therefore still shows up.
   */
  @Override
  public ExternalSystemDataReader<ComparableRow> createSinkDataReader(TestingSinkSettings s) {
    Map<ComparableRow, Integer> returned = new HashMap<>();
    return new ExternalSystemDataReader<>() {
      @Override
      public List<ComparableRow> poll(Duration timeout) {
        List<ComparableRow> fresh = new ArrayList<>();
        Map<ComparableRow, Integer> seen = new HashMap<>();
        for (List<Object> values : tableRows.get()) {
          ComparableRow row = ComparableRow.of(values);
          int count = seen.merge(row, 1, Integer::sum);
          if (count > returned.getOrDefault(row, 0)) {
            fresh.add(row);
            returned.put(row, count);
          }
        }
        if (fresh.isEmpty()) {
          sleep(Math.min(timeout.toMillis(), 200));
        }
        return fresh;
      }

      @Override
      public void close() {}
    };
  }

  /** Rows with ids unique within the test case, so restarts that write twice would show. */
  @Override
  public List<ComparableRow> generateTestData(TestingSinkSettings settings, long seed) {
    Random random = new Random(seed);
    int count = 200 + random.nextInt(300);
    List<ComparableRow> rows = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      long id = nextId++;
      String payload = random.nextInt(10) == 0 ? null : "p-" + Long.toHexString(random.nextLong());
      rows.add(new ComparableRow(id, (int) (id % BUCKETS), payload));
    }
    return rows;
  }

  @Override
  @SuppressWarnings("unchecked")
  public TypeInformation<ComparableRow> getProducedType() {
    // Records travel with the RowData serializer; the suite compares what it generated with what
    // the reader returns, both ComparableRows.
    return (TypeInformation<ComparableRow>)
        (TypeInformation<?>) InternalTypeInfo.of(ComparableRow.TYPE);
  }

  @Override
  public List<URL> getConnectorJarPaths() {
    // The MiniCluster runs in this JVM, with the connector on its classpath.
    return List.of();
  }

  @Override
  public void close() {}

  @Override
  public String toString() {
    return description;
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
