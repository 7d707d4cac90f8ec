/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.commit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.delta.kernel.Snapshot;
import io.delta.kernel.types.StructType;
import io.github.flinkdelta.core.kernel.TableProtocol;
import io.github.flinkdelta.core.kernel.WriterFeatures;
import io.github.flinkdelta.core.schema.FileSchemaCheck;
import io.github.flinkdelta.core.schema.FileSchemaCheck.TightenedColumn;
import io.github.flinkdelta.core.schema.SchemaChangedException;
import io.github.flinkdelta.core.schema.TableFeatureChecks;
import io.github.flinkdelta.core.upsert.UpsertTables;
import io.github.flinkdelta.core.write.DataFile;
import io.github.flinkdelta.core.write.FileLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.flink.annotation.Internal;

/**
 * What a commit checks of the table before it writes, since another writer may have changed the
 * table after the sink was built: that the table still reads the job's files ({@link
 * FileSchemaCheck}), that no table feature the sink does not honour has become active ({@link
 * TableFeatureChecks}), that an upsert sink's table still takes deletion vectors ({@link
 * UpsertTables#problems}), and that no column the table now declares NOT NULL holds a null in the
 * commit's files. The checks of the table run again only when its schema, properties or protocol
 * changed; the files' null counts are checked at every commit while a column is tightened.
 *
 * <p>A failed check throws {@link SchemaChangedException}: nothing is committed, and each retry
 * fails the same way until the table or the job changes.
 */
@Internal
public final class CommitChecks {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String DELETION_VECTORS_FEATURE = "deletionVectors";

  private final String tableName;
  private final FileLayout layout;
  private Checked checked;

  /** Checks commits of files of {@code layout}, the files the job writes. */
  CommitChecks(String tableName, FileLayout layout) {
    this.tableName = tableName;
    this.layout = Objects.requireNonNull(layout, "layout");
  }

  /** The table a check ran on, and what it found. */
  private record Checked(
      StructType schema,
      Map<String, String> properties,
      TableProtocol protocol,
      List<String> problems,
      List<String> upsertProblems,
      List<TightenedColumn> tightened) {}

  /**
   * Fails unless a commit of {@code files} onto {@code snapshot} keeps every rule of the table.
   *
   * @param upserts whether the commit deletes rows with deletion vectors
   * @throws SchemaChangedException naming every rule the commit would break
   */
  void check(Snapshot snapshot, Iterable<DataFile> files, boolean upserts) {
    TableProtocol protocol = TableProtocol.of(snapshot);
    if (checked == null
        || !checked.schema().equals(snapshot.getSchema())
        || !checked.properties().equals(snapshot.getTableProperties())
        || !checked.protocol().equals(protocol)) {
      checked = check(snapshot, protocol);
    }
    List<String> problems = new ArrayList<>(checked.problems());
    if (upserts) {
      problems.addAll(checked.upsertProblems());
    }
    for (TightenedColumn column : checked.tightened()) {
      if (column.statsPath().isEmpty()) {
        problems.add(
            String.format(
                "'%s' is NOT NULL in the table now, and the job writes it as nullable without"
                    + " statistics that could tell there is no null (make it nullable again, or"
                    + " rebuild the job so that it writes the column as NOT NULL)",
                column.path()));
        continue;
      }
      for (DataFile file : files) {
        long nulls = nullCount(file.statsJson(), column.statsPath());
        if (nulls != 0) {
          problems.add(
              String.format(
                  "'%s' is NOT NULL in the table now, but data file %s of this checkpoint holds %s"
                      + " in it (make the column nullable again, e.g. ALTER TABLE ... ALTER"
                      + " COLUMN %s DROP NOT NULL; or start the job without its state and send"
                      + " the checkpoint's rows again without nulls)",
                  column.path(),
                  file.path(),
                  nulls < 0 ? "values whose nulls its statistics do not count" : nulls + " nulls",
                  column.path()));
        }
      }
    }
    if (!problems.isEmpty()) {
      throw new SchemaChangedException(tableName, snapshot.getVersion(), problems);
    }
  }

  private Checked check(Snapshot snapshot, TableProtocol protocol) {
    List<String> problems = new ArrayList<>();
    StructType schema = snapshot.getSchema();
    problems.addAll(FileSchemaCheck.problems(layout, schema, snapshot.getPartitionColumnNames()));
    problems.addAll(TableFeatureChecks.problems(snapshot, layout.rowType()));
    if (WriterFeatures.materializesPartitions(snapshot) && !layout.materializesPartitions()) {
      problems.add(
          "the table now asks for its partition columns in the data files"
              + " (materializePartitionColumns, Iceberg compatibility or"
              + " 'delta.writePartitionColumnsToParquet'), which the job's files lack (rebuild the"
              + " job for the table as it is now)");
    }
    return new Checked(
        schema,
        Map.copyOf(snapshot.getTableProperties()),
        protocol,
        problems,
        upsertProblems(snapshot, protocol),
        FileSchemaCheck.tightened(layout, schema));
  }

  /**
   * What stands in the way of upserts: the properties {@link UpsertTables#problems} names, and a
   * protocol that no longer supports deletion vectors (a writer dropped the feature).
   */
  private List<String> upsertProblems(Snapshot snapshot, TableProtocol protocol) {
    List<String> problems =
        new ArrayList<>(UpsertTables.problems(tableName, snapshot.getTableProperties()));
    if (!protocol.writerFeatures().contains(DELETION_VECTORS_FEATURE)) {
      problems.add(
          String.format(
              "Delta table %s no longer supports deletion vectors, which upserts write (another"
                  + " writer dropped the '%s' table feature). Enable them again ('%s' = 'true'),"
                  + " or write the table without a primary key.",
              tableName, DELETION_VECTORS_FEATURE, UpsertTables.DELETION_VECTORS));
    }
    return problems;
  }

  /** The null count the statistics give at {@code path}; -1 when they give none. */
  private static long nullCount(String statsJson, List<String> path) {
    try {
      JsonNode node = JSON.readTree(statsJson).path("nullCount");
      for (String name : path) {
        node = node.path(name);
      }
      return node.canConvertToLong() ? node.asLong() : -1;
    } catch (java.io.IOException e) {
      return -1;
    }
  }
}
