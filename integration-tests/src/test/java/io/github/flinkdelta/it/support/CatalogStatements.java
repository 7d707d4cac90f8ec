/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.support;

import io.github.flinkdelta.core.commit.CommitOutcome;
import io.github.flinkdelta.core.maintenance.CompactionOptions;
import io.github.flinkdelta.core.storage.HadoopConfigurations;
import io.github.flinkdelta.core.table.DeltaTable;
import io.github.flinkdelta.core.table.TableRequest;
import io.github.flinkdelta.core.upsert.FileDeletes;
import io.github.flinkdelta.core.upsert.KeyColumns;
import io.github.flinkdelta.core.write.DataFile;
import io.github.flinkdelta.core.write.FileWriteOptions;
import io.github.flinkdelta.core.write.PartitionedDataWriter;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import io.github.flinkdelta.uc.internal.UnityCatalogTableLocator;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.hadoop.conf.Configuration;

/**
 * Another writer of a Unity Catalog managed table, which commits through the catalog as every
 * writer of such a table must: Delta Kernel with the project's catalog client (Spark's Unity
 * Catalog connector needs a catalog that serves Spark, which the test server is not). It applies a
 * {@link ForeignStatements} statement as an engine would, in one version: every row whose key the
 * statement changes or deletes is deleted with a deletion vector, every key it changes or adds gets
 * a row in a new file; {@code OPTIMIZE} is a compaction. A commit that loses a race to the job's is
 * planned again on the table as it is then.
 */
public final class CatalogStatements {

  private static final int MAX_ATTEMPTS = 30;

  private final UnityCatalogConnection connection;
  private final String table;
  private final Map<String, String> storageOptions;
  private final String appId = "catalog-writer-" + UUID.randomUUID();
  private long statements;

  public CatalogStatements(UnityCatalogConnection connection, String table) {
    this(connection, table, Map.of());
  }

  /** A writer of {@code table} on storage that needs {@code storageOptions}, e.g. an endpoint. */
  public CatalogStatements(
      UnityCatalogConnection connection, String table, Map<String, String> storageOptions) {
    this.connection = connection;
    this.table = table;
    this.storageOptions = Map.copyOf(storageOptions);
  }

  /**
   * Runs {@code statement} for the stop before change {@code stop}; returns its version. Every
   * attempt commits under the statement's own transaction version, so an attempt whose commit
   * landed with its response lost is known as committed by the next, never applied twice.
   */
  public long run(ForeignStatements statement, long stop) throws Exception {
    long txnVersion = ++statements;
    RuntimeException last = null;
    for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      try (DeltaTable delta = open()) {
        CommitOutcome outcome =
            statement == ForeignStatements.OPTIMIZE
                ? optimize(delta)
                : change(delta, statement, stop, txnVersion);
        if (outcome instanceof CommitOutcome.Committed committed) {
          return committed.tableVersion();
        }
        if (outcome instanceof CommitOutcome.AlreadyCommitted committed) {
          return committed.tableVersion();
        }
        last = new IllegalStateException("not committed: " + outcome);
      } catch (RuntimeException e) {
        last = e;
      }
      Thread.sleep(100);
    }
    throw new AssertionError(
        "the catalog writer could not run " + statement + " on " + table, last);
  }

  private DeltaTable open() {
    return DeltaTable.open(TableRequest.of(locator(), HadoopConfigurations.of(storageOptions)));
  }

  private UnityCatalogTableLocator locator() {
    return new UnityCatalogTableLocator(connection, CatalogReads.table(connection, table));
  }

  private CommitOutcome optimize(DeltaTable delta) {
    // A transaction of its own: the compaction's transaction version is the version it planned
    // on, which must not count as one of this writer's statements.
    var result =
        delta
            .maintenance()
            .compact(new CompactionOptions(128L << 20, 2, 1L << 40, 0.2), appId + "/optimize");
    if (!result.committed()) {
      throw new IllegalStateException("the compaction met a commit of the job");
    }
    return new CommitOutcome.Committed(result.version(), 0, 0, 0, 0, 0);
  }

  /** The rows of the table with their places: the columns of a row, its file id and position. */
  private record Placed(List<Object> row, long fileId, long position) {}

  private CommitOutcome change(
      DeltaTable delta, ForeignStatements statement, long stop, long txnVersion)
      throws IOException {
    delta.reload();
    KeyColumns all =
        KeyColumns.of(table, Changelog.TYPE, List.of("id", "bucket", "version", "payload"));
    Map<Long, Placed> placed = new HashMap<>();
    delta.scanKeys(
        all,
        (key, fileId, position) -> {
          List<Object> row = parse(key);
          placed.put((Long) row.get(0), new Placed(row, fileId, position));
        });
    Map<Long, List<Object>> before = new HashMap<>();
    placed.forEach((id, row) -> before.put(id, row.row()));
    Map<Long, List<Object>> after = statement.apply(before, stop);

    FileDeletes deletes = new FileDeletes();
    List<GenericRowData> written = new ArrayList<>();
    for (Placed row : placed.values()) {
      List<Object> next = after.get(ForeignStatements.id(row.row()));
      if (!row.row().equals(next)) {
        deletes.add(row.fileId(), row.position());
      }
    }
    after.forEach(
        (id, row) -> {
          if (!Objects.equals(before.get(id), row)) {
            written.add(
                GenericRowData.of(
                    row.get(0),
                    row.get(1),
                    row.get(2),
                    StringData.fromString((String) row.get(3))));
          }
        });
    List<DataFile> files = new ArrayList<>();
    if (!written.isEmpty()) {
      Configuration conf = locator().storageConf(HadoopConfigurations.of(storageOptions));
      try (PartitionedDataWriter writer =
          new PartitionedDataWriter(
              delta.layoutFor(Changelog.TYPE, List.of("bucket")),
              conf,
              delta.path(),
              FileWriteOptions.from(new org.apache.flink.configuration.Configuration()),
              "part-catalog-writer-" + UUID.randomUUID())) {
        for (GenericRowData row : written) {
          writer.write(row);
        }
        files.addAll(writer.flush().toList());
      }
    }
    return delta.commit(appId, txnVersion, files, deletes);
  }

  /** The columns of a key of {@code id, bucket, version, payload}, as KeyColumns encodes it. */
  private static List<Object> parse(String key) {
    List<String> parts = new ArrayList<>();
    int at = 0;
    while (at < key.length()) {
      int colon = key.indexOf(':', at);
      int length = Integer.parseInt(key.substring(at, colon));
      parts.add(key.substring(colon + 1, colon + 1 + length));
      at = colon + 1 + length;
    }
    return List.of(
        Long.parseLong(parts.get(0)),
        Integer.parseInt(parts.get(1)),
        Long.parseLong(parts.get(2)),
        parts.get(3));
  }
}
