/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.source;

import io.github.flinkdelta.core.catalog.TableDefinition;
import io.github.flinkdelta.core.catalog.TableReference;
import io.github.flinkdelta.core.storage.HadoopConfigurations;
import io.github.flinkdelta.core.table.DeltaTable;
import io.github.flinkdelta.core.table.TableRequest;
import io.github.flinkdelta.core.types.DeltaTypes;
import io.github.flinkdelta.core.write.DataFile;
import io.github.flinkdelta.core.write.FileWriteOptions;
import io.github.flinkdelta.core.write.PartitionedDataWriter;
import io.github.flinkdelta.it.support.ComparableRow;
import io.github.flinkdelta.it.support.MappedSource;
import io.github.flinkdelta.source.DeltaSource;
import io.github.flinkdelta.source.DeltaSourceBuilder;
import io.github.flinkdelta.source.DeltaSourceOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URL;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.function.Consumer;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.testframe.external.ExternalSystemSplitDataWriter;
import org.apache.flink.connector.testframe.external.source.DataStreamSourceExternalContext;
import org.apache.flink.connector.testframe.external.source.TestingSourceSettings;
import org.apache.flink.table.data.RowData;

/**
 * One Delta table for {@code SourceTestSuiteBase}: each batch of records the suite writes to a
 * "split" is a version of its own that adds one data file of them, committed through the
 * connector's own table code, and the source under test is a {@link DeltaSource} of the table,
 * bounded or continuous as the suite asks. The table is not partitioned: the suite checks that a
 * split's records arrive in the order written, which holds within a data file.
 */
final class DeltaSourceExternalContext implements DataStreamSourceExternalContext<ComparableRow> {

  private static final int BUCKETS = 4;

  private final String description;
  private final TableReference table;
  private final Consumer<DeltaSourceBuilder> target;
  private int writers;

  DeltaSourceExternalContext(
      String description, TableReference table, Consumer<DeltaSourceBuilder> target) {
    this.description = description;
    this.table = table;
    this.target = target;
  }

  @Override
  public Source<ComparableRow, ?, ?> createSource(TestingSourceSettings settings) {
    open().close();
    DeltaSourceBuilder builder =
        DeltaSource.builder().option(DeltaSourceOptions.POLL_INTERVAL, Duration.ofMillis(100));
    target.accept(builder);
    if (settings.getBoundedness() == Boundedness.BOUNDED) {
      builder.bounded();
    } else {
      builder.continuous();
    }
    return new MappedSource<
        RowData,
        ComparableRow,
        io.github.flinkdelta.source.DeltaSplit,
        io.github.flinkdelta.source.DeltaEnumeratorState>(
        builder.build(),
        row ->
            new ComparableRow(
                row.getLong(0),
                row.getInt(1),
                row.isNullAt(2) ? null : row.getString(2).toString()),
        getProducedType());
  }

  /** Each call to {@code writeRecords} commits one version adding one file of the records. */
  @Override
  public ExternalSystemSplitDataWriter<ComparableRow> createSourceSplitDataWriter(
      TestingSourceSettings settings) {
    String appId = "conformance-writer-" + (++writers) + "-" + UUID.randomUUID();
    return new ExternalSystemSplitDataWriter<>() {
      private long commits;

      @Override
      public void writeRecords(List<ComparableRow> records) {
        try (DeltaTable delta = open();
            PartitionedDataWriter writer =
                new PartitionedDataWriter(
                    delta.layoutFor(ComparableRow.TYPE, List.of()),
                    HadoopConfigurations.of(Map.of()),
                    delta.path(),
                    FileWriteOptions.from(new Configuration()),
                    appId + "-" + (commits + 1))) {
          for (ComparableRow row : records) {
            writer.write(row);
          }
          List<DataFile> files = writer.flush().toList();
          delta.commit(appId, ++commits, files);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }

      @Override
      public void close() {}
    };
  }

  private DeltaTable open() {
    return DeltaTable.open(
        TableRequest.of(table, HadoopConfigurations.of(Map.of()))
            .creatingIfMissing(
                new TableDefinition(
                    DeltaTypes.toDeltaSchema(ComparableRow.TYPE),
                    List.of(),
                    Map.of("delta.columnMapping.mode", "name"))));
  }

  /** Rows with ids unique to the split, so a row read twice or lost shows. */
  @Override
  public List<ComparableRow> generateTestData(
      TestingSourceSettings settings, int splitIndex, long seed) {
    Random random = new Random(seed);
    int count = 100 + random.nextInt(200);
    List<ComparableRow> rows = new ArrayList<>(count);
    long first = (long) splitIndex * 1_000_000 + random.nextInt(500_000);
    for (long id = first; id < first + count; id++) {
      String payload = random.nextInt(10) == 0 ? null : "p-" + Long.toHexString(random.nextLong());
      rows.add(new ComparableRow(id, (int) (id % BUCKETS), payload));
    }
    return rows;
  }

  @Override
  public TypeInformation<ComparableRow> getProducedType() {
    return TypeInformation.of(ComparableRow.class);
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
}
