/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.table.data.RowData;
import org.apache.flink.util.Collector;
import org.apache.iceberg.DistributionMode;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.flink.CatalogLoader;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.flink.sink.dynamic.DynamicIcebergSink;
import org.apache.iceberg.flink.sink.dynamic.DynamicRecord;
import org.apache.iceberg.flink.sink.dynamic.DynamicRecordGenerator;
import org.apache.iceberg.flink.sink.dynamic.TableCreator;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.TypeUtil;

/**
 * Apache Iceberg's dynamic sink ({@code DynamicIcebergSink}, Iceberg 1.11.0's Flink 2.1 runtime)
 * into a Hadoop catalog on local disk, creating each table (format 2, Parquet with Snappy) when its
 * first record arrives. Appends go forward to the writer chained to the generator, as this sink's
 * appends stay on their subtask; upserts are sent in upsert mode with {@code event_id} as equality
 * field, which Iceberg distributes to the writers by that field. Its caches hold every table (its
 * default holds 100, and a table missing from them is reloaded from the catalog for every record).
 *
 * <p>A table exists once its first metadata file does; a checkpoint's commit is visible once the
 * metadata file whose current snapshot records the checkpoint ({@code
 * flink.max-committed-checkpoint-id}) has its final name. Tables are read back with {@code
 * IcebergGenerics}, which applies equality and position deletes.
 */
final class IcebergDynamicContender implements DynamicContender {

  static final String NAME = "iceberg-dynamic";

  private static final Pattern METADATA_FILE = Pattern.compile("v(\\d+)\\.metadata\\.json");
  private static final String CHECKPOINT = "flink.max-committed-checkpoint-id";

  private Path warehouse;
  private DynamicWorkload workload;
  private int parallelism;
  private HadoopCatalog catalog;

  @Override
  public void prepare(Path dir, DynamicWorkload workload, int parallelism) throws IOException {
    this.warehouse = dir.resolve("iceberg-warehouse");
    this.workload = workload;
    this.parallelism = parallelism;
    catalog = new HadoopCatalog(IcebergContender.hadoopConf(), warehouse.toUri().toString());
    catalog.createNamespace(Namespace.of(DynamicWorkload.NAMESPACE));
  }

  @Override
  public void attach(DataStream<RowData> rows) {
    DynamicIcebergSink.forInput(rows)
        .generator(new Tables(workload.tables(), workload.upserts(), parallelism))
        .catalogLoader(
            CatalogLoader.hadoop(
                "bench",
                IcebergContender.hadoopConf(),
                Map.of("warehouse", warehouse.toUri().toString())))
        .tableCreator(new SnappyFormatTwoTables())
        .writeParallelism(parallelism)
        .cacheMaxSize(Math.max(100, workload.tables()))
        .uidPrefix(NAME)
        .append();
  }

  private static TableIdentifier identifier(int table) {
    return TableIdentifier.of(DynamicWorkload.NAMESPACE, DynamicWorkload.tableName(table));
  }

  @Override
  public List<TableCommits> commits() throws IOException {
    List<TableCommits> commits = new ArrayList<>();
    for (int t = 0; t < workload.tables(); t++) {
      Path metadata =
          warehouse
              .resolve(DynamicWorkload.NAMESPACE)
              .resolve(DynamicWorkload.tableName(t))
              .resolve("metadata");
      if (Files.isDirectory(metadata)) {
        TreeMap<Long, Path> versions = metadataFiles(metadata);
        if (!versions.isEmpty()) {
          commits.add(history(t, versions));
        }
      }
    }
    return commits;
  }

  /** The table's metadata files by version. */
  private static TreeMap<Long, Path> metadataFiles(Path metadata) throws IOException {
    TreeMap<Long, Path> versions = new TreeMap<>();
    try (Stream<Path> files = Files.list(metadata)) {
      for (Path file : files.toList()) {
        Matcher name = METADATA_FILE.matcher(file.getFileName().toString());
        if (name.matches()) {
          versions.put(Long.parseLong(name.group(1)), file);
        }
      }
    }
    return versions;
  }

  /**
   * The table's history: the checkpoint of each snapshot from the latest metadata file (which lists
   * every snapshot), and the first metadata file that made each snapshot current.
   */
  private static TableCommits history(int table, TreeMap<Long, Path> versions) throws IOException {
    Map<Long, Long> checkpointOfSnapshot = new HashMap<>();
    for (JsonNode snapshot :
        new ObjectMapper().readTree(versions.lastEntry().getValue().toFile()).path("snapshots")) {
      JsonNode checkpoint = snapshot.path("summary").path(CHECKPOINT);
      if (!checkpoint.isMissingNode()) {
        checkpointOfSnapshot.put(snapshot.path("snapshot-id").asLong(), checkpoint.asLong());
      }
    }
    Map<Long, Long> visible = new HashMap<>();
    for (Path file : versions.values()) {
      Long checkpoint = checkpointOfSnapshot.get(currentSnapshot(file));
      if (checkpoint != null) {
        visible.merge(checkpoint, TableCommits.modifiedMillis(file), Math::min);
      }
    }
    return new TableCommits(
        table, TableCommits.modifiedMillis(versions.firstEntry().getValue()), visible);
  }

  /**
   * The current snapshot a metadata file names, read up to that field: it comes before the list of
   * snapshots, which grows with every commit.
   */
  private static long currentSnapshot(Path metadataFile) throws IOException {
    try (JsonParser json = new JsonFactory().createParser(metadataFile.toFile())) {
      json.nextToken();
      while (json.nextToken() == JsonToken.FIELD_NAME) {
        String field = json.getCurrentName();
        json.nextToken();
        if (field.equals("current-snapshot-id")) {
          return json.getValueAsLong(-1);
        }
        json.skipChildren();
      }
    }
    return -1;
  }

  @Override
  public void read(int table, RowDigest digest) throws IOException {
    Table loaded = catalog.loadTable(identifier(table));
    try (CloseableIterable<Record> records = IcebergGenerics.read(loaded).build()) {
      for (Record record : records) {
        OffsetDateTime time = (OffsetDateTime) record.get(8);
        digest.add(
            (Long) record.get(0),
            (Long) record.get(1),
            record.get(2).toString(),
            record.get(3).toString(),
            record.get(4).toString(),
            record.get(5).toString(),
            (Double) record.get(6),
            (Double) record.get(7),
            time.toEpochSecond() * 1_000_000 + time.getNano() / 1_000,
            ((BigDecimal) record.get(9)).unscaledValue().longValueExact());
      }
    }
  }

  @Override
  public void close() throws IOException {
    if (catalog != null) {
      catalog.close();
    }
  }

  /**
   * Sends row {@code i} to table {@code bench.t<event_id % tables>}: appends forward, without a
   * shuffle; changes in upsert mode keyed by {@code event_id}.
   */
  private static final class Tables implements DynamicRecordGenerator<RowData> {

    private static final long serialVersionUID = 1L;

    private final int tables;
    private final boolean upserts;
    private final int parallelism;
    private transient Schema schema;
    private transient TableIdentifier[] identifiers;

    Tables(int tables, boolean upserts, int parallelism) {
      this.tables = tables;
      this.upserts = upserts;
      this.parallelism = parallelism;
    }

    @Override
    public void generate(RowData row, Collector<DynamicRecord> out) {
      if (schema == null) {
        // One schema instance for every record: the sink caches its comparisons by it. Its field
        // ids are those a new table gets (1 to 10; the conversion numbers them from 0): Iceberg
        // 1.11 keeps the equality field ids of the record's own schema for records that create
        // their table, and with other ids writes equality deletes of no column, which fail.
        schema =
            TypeUtil.assignIncreasingFreshIds(
                FlinkSchemaUtil.convert(FlinkSchemaUtil.toResolvedSchema(BenchmarkRows.TYPE)));
        identifiers = new TableIdentifier[tables];
        for (int t = 0; t < tables; t++) {
          identifiers[t] = identifier(t);
        }
      }
      TableIdentifier table = identifiers[DynamicWorkload.tableOf(row.getLong(0), tables)];
      DynamicRecord record;
      if (upserts) {
        record =
            new DynamicRecord(
                table,
                SnapshotRef.MAIN_BRANCH,
                schema,
                row,
                PartitionSpec.unpartitioned(),
                DistributionMode.NONE,
                parallelism);
        record.setUpsertMode(true);
        record.setEqualityFields(Set.of(DynamicWorkload.KEY));
      } else {
        record =
            new DynamicRecord(
                table, SnapshotRef.MAIN_BRANCH, schema, row, PartitionSpec.unpartitioned());
      }
      out.collect(record);
    }
  }

  /** Creates tables of format 2 that write Parquet with Snappy, as this sink does. */
  private record SnappyFormatTwoTables() implements TableCreator {
    @Override
    public Table createTable(
        Catalog catalog, TableIdentifier identifier, Schema schema, PartitionSpec spec) {
      return catalog.createTable(
          identifier,
          schema,
          spec,
          Map.of(
              "format-version", "2",
              "write.format.default", "parquet",
              "write.parquet.compression-codec", "snappy"));
    }
  }
}
