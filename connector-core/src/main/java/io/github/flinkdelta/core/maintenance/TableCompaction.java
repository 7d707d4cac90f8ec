/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.maintenance;

import io.delta.kernel.Scan;
import io.delta.kernel.Snapshot;
import io.delta.kernel.data.ColumnVector;
import io.delta.kernel.data.FilteredColumnarBatch;
import io.delta.kernel.data.Row;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.types.MetadataColumnSpec;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.CloseableIterator;
import io.github.flinkdelta.core.catalog.TableDefinition;
import io.github.flinkdelta.core.commit.CommitOutcome;
import io.github.flinkdelta.core.commit.CommitOutcome.Committed;
import io.github.flinkdelta.core.commit.CommitOutcome.Failed;
import io.github.flinkdelta.core.commit.SnapshotCache;
import io.github.flinkdelta.core.commit.TableCommitter;
import io.github.flinkdelta.core.deletion.DeletionVectors;
import io.github.flinkdelta.core.kernel.RowTracking;
import io.github.flinkdelta.core.kernel.ScanFiles;
import io.github.flinkdelta.core.kernel.WriterFeatures;
import io.github.flinkdelta.core.log.LiveFiles;
import io.github.flinkdelta.core.log.LiveFiles.LiveFile;
import io.github.flinkdelta.core.parquet.DataColumns;
import io.github.flinkdelta.core.parquet.ParquetColumn;
import io.github.flinkdelta.core.read.KernelRows;
import io.github.flinkdelta.core.read.ScanFileRows;
import io.github.flinkdelta.core.schema.FileLayouts;
import io.github.flinkdelta.core.types.DeltaTypes;
import io.github.flinkdelta.core.upsert.KeyColumns;
import io.github.flinkdelta.core.upsert.MovedRowConsumer;
import io.github.flinkdelta.core.write.DataFile;
import io.github.flinkdelta.core.write.DataFiles;
import io.github.flinkdelta.core.write.FileLayout;
import io.github.flinkdelta.core.write.FileWriteOptions;
import io.github.flinkdelta.core.write.PartitionedDataWriter;
import io.github.flinkdelta.core.write.RowLocation;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Predicate;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One compaction run on a table: plans on the latest version ({@link CompactionPlanner}), reads the
 * live rows of each group's files through Kernel (deletion vectors applied), writes them into new
 * files of the same partition with the table's layout and statistics, and commits the removes and
 * adds with {@code dataChange = false} through the table's committer.
 *
 * <p>Concurrency: a commit of another writer that touches none of the rewritten files (an append,
 * say) commutes with the rewrite, and Kernel rebases onto it. One that removed or re-added a
 * rewritten file (an upsert's new deletion vector, another compaction) conflicts: the rewrite
 * yields, its files are deleted, and the run plans again on the latest version. Compaction yields
 * because its work can be redone at any time, while the other writer's commit carries data.
 */
@Internal
public final class TableCompaction {

  private static final Logger LOG = LoggerFactory.getLogger(TableCompaction.class);

  /** Plans of one run before it gives up to writers that keep touching its files. */
  static final int MAX_PLANS = 3;

  private final String tableName;
  private final Engine engine;
  private final SnapshotCache snapshots;
  private final TableCommitter committer;
  private final Configuration conf;
  private Runnable beforeCommit = () -> {};

  public TableCompaction(
      String tableName,
      Engine engine,
      SnapshotCache snapshots,
      TableCommitter committer,
      Configuration conf) {
    this.tableName = tableName;
    this.engine = engine;
    this.snapshots = snapshots;
    this.committer = committer;
    this.conf = conf;
  }

  /** Runs {@code hook} before each commit of a plan: for tests of commits that race it. */
  public TableCompaction beforeEachCommit(Runnable hook) {
    this.beforeCommit = hook;
    return this;
  }

  /**
   * Runs once under transaction id {@code appId} (the planned version is the transaction version):
   * plans, rewrites and commits, and plans again when another writer's commit touched a rewritten
   * file first, up to {@link #MAX_PLANS} times.
   */
  public CompactionResult run(
      CompactionOptions options, FileWriteOptions writeOptions, String appId) {
    for (int attempt = 1; ; attempt++) {
      Optional<PreparedCompaction> prepared = prepare(options, writeOptions);
      if (prepared.isEmpty()) {
        return CompactionResult.nothing(attempt);
      }
      beforeCommit.run();
      CompactionResult result = commit(prepared.get(), appId, attempt);
      if (result.committed()) {
        return result;
      }
      if (attempt >= MAX_PLANS) {
        LOG.warn(
            "Compaction of {} gave up after {} plans: each met a commit that changed files it"
                + " rewrote",
            tableName,
            attempt);
        return result;
      }
    }
  }

  /**
   * Plans on the latest version and writes the rewritten files, without committing them: what a
   * commit on any handle of the table then takes ({@link #commit}).
   *
   * @return empty when nothing is worth rewriting
   */
  public Optional<PreparedCompaction> prepare(
      CompactionOptions options, FileWriteOptions writeOptions) {
    return prepare(options, writeOptions, Scope.WHOLE_TABLE);
  }

  /**
   * As {@link #prepare(CompactionOptions, FileWriteOptions)}, but only of the files {@code scope}
   * takes, writing files of its prefix and telling it where each row moved.
   */
  public Optional<PreparedCompaction> prepare(
      CompactionOptions options, FileWriteOptions writeOptions, Scope scope) {
    return prepare(snapshots.reload(), options, writeOptions, scope);
  }

  /**
   * As {@link #prepare(CompactionOptions, FileWriteOptions, Scope)}, planned on {@code snapshot}.
   */
  public Optional<PreparedCompaction> prepare(
      Snapshot snapshot, CompactionOptions options, FileWriteOptions writeOptions, Scope scope) {
    Plan plan = plan(snapshot, options, scope.files());
    if (plan.groups().isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        new PreparedCompaction(
            snapshot, plan.removed(), rewrite(snapshot, plan, writeOptions, scope)));
  }

  /**
   * What a compaction rewrites: the files (by path relative to the table root) it may take, the
   * prefix of the files it writes, and, for an upsert sink's writer that compacts its own files,
   * the key columns and where to report each moved row (both null otherwise).
   */
  public record Scope(
      Predicate<String> files, String prefix, KeyColumns keys, MovedRowConsumer moved) {
    static final Scope WHOLE_TABLE = new Scope(path -> true, "part-compacted", null, null);
  }

  /**
   * Commits {@code prepared} on the version it was planned on, which Kernel rebases onto every
   * version since that touches none of its files. When one did, nothing lands; its files are
   * deleted once a fresh load of the table shows that its transaction is not there, as after any
   * other failure.
   */
  public CompactionResult commit(PreparedCompaction prepared, String appId, int attempt) {
    CommitOutcome outcome =
        committer.rewrite(
            prepared.base(),
            appId,
            prepared.plannedVersion(),
            prepared.removed(),
            prepared.written());
    if (outcome instanceof Committed committed) {
      long removedBytes = prepared.removed().stream().mapToLong(LiveFile::size).sum();
      LOG.info(
          "Compacted {} files ({} bytes) of {} into {} ({} bytes) in version {}",
          prepared.removed().size(),
          removedBytes,
          tableName,
          prepared.written().size(),
          prepared.written().sizeBytes(),
          committed.tableVersion());
      return new CompactionResult(
          committed.tableVersion(),
          prepared.removed().size(),
          prepared.written().size(),
          removedBytes,
          prepared.written().sizeBytes(),
          prepared.written().numRecords(),
          attempt);
    }
    // A commit can fail after its version was written (an interrupt while Kernel loads the version
    // it wrote, say): the files go only once the table shows that the rewrite did not land.
    boolean landed = mayHaveLanded(appId, prepared.plannedVersion());
    if (!landed) {
      discard(prepared);
    }
    if (outcome instanceof Failed failed) {
      throw new IllegalStateException(
          String.format(
              "The compaction commit of Delta table %s failed; %s",
              tableName, landed ? "it may have landed, so its files stay" : "nothing landed"),
          failed.cause());
    }
    LOG.info(
        "Compaction of {} met a commit that changed files it rewrote ({}); {}",
        tableName,
        outcome,
        landed ? "its files stay, as the table may hold them" : "its files are deleted");
    return CompactionResult.nothing(attempt);
  }

  /**
   * Whether the table, loaded afresh, holds transaction ({@code appId}, {@code txnVersion}) or a
   * later one; true as well when it cannot be loaded.
   */
  private boolean mayHaveLanded(String appId, long txnVersion) {
    try {
      snapshots.reload();
      return snapshots.transactionVersion(appId) >= txnVersion;
    } catch (RuntimeException e) {
      LOG.warn("Cannot tell whether a compaction commit of {} landed", tableName, e);
      return true;
    }
  }

  /** Deletes the files of {@code prepared}, which no version references. */
  public void discard(PreparedCompaction prepared) {
    Path root = new Path(prepared.base().getPath());
    for (DataFile file : prepared.written().toList()) {
      Path path = new Path(root, file.path());
      try {
        path.getFileSystem(conf).delete(path, false);
      } catch (IOException e) {
        LOG.warn("Cannot delete {} of {}, which no version references", path, tableName, e);
      }
    }
  }

  private static final String ROW_ID = "_flink_delta_row_id";
  private static final String ROW_COMMIT_VERSION = "_flink_delta_row_commit_version";

  /**
   * {@code layout} with the two materialized row tracking columns after the table's, read from the
   * two columns that follow the table's in each row; no statistics are kept for them.
   */
  private static FileLayout withRowTrackingColumns(
      FileLayout layout, int tableColumns, List<String> materialized) {
    List<ParquetColumn> columns = new ArrayList<>(layout.dataColumns());
    int[] positions = new int[columns.size() + materialized.size()];
    for (int i = 0; i < columns.size(); i++) {
      positions[i] = layout.data().position(i);
    }
    for (int i = 0; i < materialized.size(); i++) {
      String name = materialized.get(i);
      columns.add(
          new ParquetColumn(
              name, name, ParquetColumn.NO_FIELD_ID, new BigIntType(true), false, List.of()));
      positions[positions.length - materialized.size() + i] = tableColumns + i;
    }
    return new FileLayout(
        new DataColumns(layout.tableName(), columns, positions), layout.partitionColumns());
  }

  private record Plan(List<CompactionGroup> groups, List<LiveFile> removed, List<Row> scanFiles) {}

  private Plan plan(Snapshot snapshot, CompactionOptions options, Predicate<String> eligible) {
    List<FileCandidate> candidates = new ArrayList<>();
    Map<String, Row> scanFiles = new HashMap<>();
    Map<String, LiveFile> entries = new HashMap<>();
    LiveFiles.scan(
        engine,
        snapshot,
        tableName,
        (file, scanFile) -> {
          if (!eligible.test(file.path())) {
            return;
          }
          long deleted = file.deletionVector() == null ? 0 : file.deletionVector().cardinality();
          candidates.add(
              new FileCandidate(
                  file.path(),
                  file.partitionValues(),
                  file.size(),
                  DeletionVectors.numRecords(file.statsJson()),
                  deleted));
          scanFiles.put(file.path(), scanFile);
          entries.put(file.path(), file);
        });
    List<CompactionGroup> groups = CompactionPlanner.plan(candidates, options);
    List<LiveFile> removed = new ArrayList<>();
    List<Row> chosen = new ArrayList<>();
    for (CompactionGroup group : groups) {
      for (FileCandidate file : group.files()) {
        removed.add(entries.get(file.path()));
        chosen.add(scanFiles.get(file.path()));
      }
    }
    return new Plan(groups, removed, chosen);
  }

  /**
   * Writes the live rows of the plan's files into new files, rolled at the target size. On a table
   * with row tracking each row keeps its row id and row commit version: Kernel reads them (from the
   * file's materialized columns, or its base row id and the row's position), and the new files hold
   * them in the table's materialized columns, which take precedence over the ids Kernel assigns the
   * new files. With the scope's key columns, each row's key and old and new place go to the scope.
   */
  private DataFiles rewrite(
      Snapshot snapshot, Plan plan, FileWriteOptions writeOptions, Scope scope) {
    TableDefinition definition =
        new TableDefinition(
            snapshot.getSchema(),
            snapshot.getPartitionColumnNames(),
            snapshot.getTableProperties());
    StructType schema = snapshot.getSchema();
    FileLayout layout =
        FileLayouts.forRows(
            tableName,
            definition,
            DeltaTypes.toFlinkRowType(schema),
            List.of(),
            WriterFeatures.materializesPartitions(snapshot),
            WriterFeatures.clusteringColumns(snapshot));
    if (RowTracking.isOn(snapshot)) {
      List<String> materialized = RowTracking.materializedColumns(tableName, snapshot);
      layout = withRowTrackingColumns(layout, schema.length(), materialized);
      schema =
          schema
              .add(StructField.createMetadataColumn(ROW_ID, MetadataColumnSpec.ROW_ID))
              .add(
                  StructField.createMetadataColumn(
                      ROW_COMMIT_VERSION, MetadataColumnSpec.ROW_COMMIT_VERSION));
    }
    KeyColumns keys = null;
    int rowIndex = -1;
    if (scope.keys() != null) {
      keys =
          KeyColumns.of(
              tableName, DeltaTypes.toFlinkRowType(snapshot.getSchema()), scope.keys().names());
      rowIndex = schema.length();
      schema = schema.add(StructField.DEFAULT_ROW_INDEX_COLUMN);
    }
    Scan scan = snapshot.getScanBuilder().withReadSchema(schema).build();
    Row scanState = scan.getScanState(engine);
    StructType physical = ScanFiles.physicalReadSchema(scanState);
    String prefix = scope.prefix() + "-" + UUID.randomUUID();
    try (PartitionedDataWriter writer =
        new PartitionedDataWriter(layout, conf, snapshot.getPath(), writeOptions, prefix, false)) {
      for (int f = 0; f < plan.scanFiles().size(); f++) {
        Row scanFile = plan.scanFiles().get(f);
        // The plan lists each file's entry beside its scan row.
        long fileId = plan.removed().get(f).id();
        try (CloseableIterator<FilteredColumnarBatch> logical =
            ScanFileRows.read(engine, scanState, physical, scanFile)) {
          while (logical.hasNext()) {
            FilteredColumnarBatch batch = logical.next();
            Optional<ColumnVector> selected = batch.getSelectionVector();
            for (int i = 0; i < batch.getData().getSize(); i++) {
              if (selected.isPresent()
                  && (selected.get().isNullAt(i) || !selected.get().getBoolean(i))) {
                continue;
              }
              GenericRowData row = KernelRows.rowOf(batch.getData(), i);
              if (keys == null) {
                writer.write(row);
              } else {
                RowLocation to = writer.append(row);
                scope.moved().accept(keys.keyOf(row), fileId, row.getLong(rowIndex), to);
              }
            }
          }
        }
      }
      return writer.flush();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot rewrite data files of Delta table " + tableName, e);
    }
  }
}
