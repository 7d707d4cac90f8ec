package io.github.flinkdelta.core.table;

import io.delta.kernel.Operation;
import io.delta.kernel.Snapshot;
import io.delta.kernel.TableManager;
import io.delta.kernel.Transaction;
import io.delta.kernel.TransactionCommitResult;
import io.delta.kernel.data.Row;
import io.delta.kernel.defaults.engine.DefaultEngine;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.exceptions.CommitStateUnknownException;
import io.delta.kernel.exceptions.ConcurrentTransactionException;
import io.delta.kernel.exceptions.ConcurrentWriteException;
import io.delta.kernel.exceptions.TableAlreadyExistsException;
import io.delta.kernel.exceptions.TableNotFoundException;
import io.delta.kernel.expressions.Column;
import io.delta.kernel.transaction.DataLayoutSpec;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.CloseableIterable;
import io.github.flinkdelta.core.catalog.PathTableLocator;
import io.github.flinkdelta.core.catalog.SnapshotSource;
import io.github.flinkdelta.core.catalog.TableLocator;
import io.github.flinkdelta.core.parquet.DataFile;
import io.github.flinkdelta.core.parquet.FileLayout;
import io.github.flinkdelta.core.types.DeltaTypes;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.flink.table.types.logical.RowType;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Delta table on a path, as the sink sees it: opened or created once, its latest snapshot kept in
 * memory, and appends committed with a transaction id so that each is applied exactly once.
 *
 * <p>The snapshot is refreshed from the commit that this instance makes (Kernel's post-commit
 * snapshot, no log listing); only after another writer's commits interleave is it reloaded.
 *
 * <p>Not thread-safe: one committer owns one instance.
 */
public final class DeltaTable implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(DeltaTable.class);
  static final String ENGINE_INFO = "flink-delta";
  private static final int MAX_CONFLICT_ATTEMPTS = 10;
  private static final int DEFAULT_COMMIT_RETRIES = 10;

  /** See {@link #reloadIfDue}. */
  static final int MAX_COMMITS_BETWEEN_RELOADS = 100;

  private final String name;
  private final String path;
  private final Configuration conf;
  private final Engine engine;
  private final SnapshotSource source;
  private final int maxCommitRetries;
  private final WriteContexts writeContexts = new WriteContexts();
  private Snapshot snapshot;
  private long reloadedAtCheckpoint = -1;
  private int commitsSinceLoad;

  private DeltaTable(TableLocator locator, Configuration conf, int maxCommitRetries) {
    this.maxCommitRetries = maxCommitRetries;
    this.name = locator.name();
    this.path = locator.path();
    this.conf = locator.storageConf(conf);
    this.engine = DefaultEngine.create(this.conf);
    this.source = locator.snapshots(this.conf);
    this.snapshot = source.latest(engine);
  }

  /**
   * Opens the table {@code locator} describes.
   *
   * @throws TableNotFoundException when there is no Delta table there
   */
  public static DeltaTable open(TableLocator locator, Configuration conf) {
    return new DeltaTable(locator, conf, DEFAULT_COMMIT_RETRIES);
  }

  /**
   * Opens the table {@code locator} describes; a commit is retried at most {@code maxCommitRetries}
   * times after a retryable failure before it fails.
   */
  public static DeltaTable open(TableLocator locator, Configuration conf, int maxCommitRetries) {
    return new DeltaTable(locator, conf, maxCommitRetries);
  }

  /**
   * Opens an existing table.
   *
   * @throws TableNotFoundException when there is no Delta table at the path
   */
  public static DeltaTable open(String path, Configuration conf) {
    return new DeltaTable(new PathTableLocator(path), conf, DEFAULT_COMMIT_RETRIES);
  }

  /**
   * Opens the table at {@code path}, creating it with the schema of {@code rowType} when there is
   * none and {@code createIfMissing} is set.
   */
  public static DeltaTable open(
      String path,
      Configuration conf,
      boolean createIfMissing,
      RowType rowType,
      List<String> partitionColumns,
      Map<String, String> properties) {
    try {
      return open(path, conf);
    } catch (TableNotFoundException e) {
      if (!createIfMissing) {
        throw new IllegalStateException(TableErrors.tableNotFound(path), e);
      }
    }
    checkWritable(path, conf);
    create(DefaultEngine.create(conf), path, rowType, partitionColumns, properties);
    return open(path, conf);
  }

  private static void create(
      Engine engine,
      String path,
      RowType rowType,
      List<String> partitionColumns,
      Map<String, String> properties) {
    StructType schema = DeltaTypes.toDeltaSchema(rowType);
    List<Column> partitions = new ArrayList<>();
    for (String name : partitionColumns) {
      partitions.add(new Column(name));
    }
    try {
      Transaction create =
          TableManager.buildCreateTableTransaction(path, schema, ENGINE_INFO)
              .withTableProperties(properties)
              .withDataLayoutSpec(
                  partitions.isEmpty()
                      ? DataLayoutSpec.noDataLayout()
                      : DataLayoutSpec.partitioned(partitions))
              .build(engine);
      long version = create.commit(engine, CloseableIterable.emptyIterable()).getVersion();
      LOG.info("Created Delta table {} at version {} with schema {}", path, version, schema);
    } catch (TableAlreadyExistsException | ConcurrentWriteException e) {
      // Another writer created it first; the caller loads whatever is there now.
      LOG.info("Delta table {} was created concurrently by another writer", path);
    }
  }

  public String path() {
    return path;
  }

  /**
   * Checks that rows of {@code rowType} fit the table and returns how writers lay them out.
   *
   * @throws IllegalArgumentException listing every difference between the rows and the table
   */
  public FileLayout layoutFor(RowType rowType, List<String> expectedPartitionColumns) {
    List<String> problems = TableLayouts.differences(snapshot.getSchema(), rowType);
    List<String> partitions = snapshot.getPartitionColumnNames();
    if (expectedPartitionColumns != null
        && !expectedPartitionColumns.isEmpty()
        && !lowerCase(expectedPartitionColumns).equals(lowerCase(partitions))) {
      problems.add(
          "the sink partitions by "
              + expectedPartitionColumns
              + " but the table is partitioned by "
              + partitions);
    }
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException(TableErrors.schemaMismatch(name, problems));
    }
    return TableLayouts.layout(
        name, snapshot.getSchema(), partitions, snapshot.getTableProperties(), rowType);
  }

  /** Fails unless this process can create and delete a file under the table's root. */
  public void checkWritable() {
    checkWritable(path, conf);
  }

  private static void checkWritable(String path, Configuration conf) {
    Path probe = new Path(path, ".flink-delta-write-check-" + UUID.randomUUID());
    try {
      FileSystem fs = probe.getFileSystem(conf);
      fs.create(probe, false).close();
      fs.delete(probe, false);
    } catch (IOException | RuntimeException e) {
      throw new IllegalStateException(TableErrors.notWritable(path, e), e);
    }
  }

  /** The last transaction version the table records for {@code appId}, or -1. */
  public long transactionVersion(String appId) {
    return snapshot.getLatestTransactionVersion(engine, appId).orElse(-1L);
  }

  /** Reloads the latest snapshot. */
  public void refresh() {
    snapshot = source.latest(engine);
    commitsSinceLoad = 0;
  }

  /**
   * Reloads the latest snapshot if a Delta checkpoint newer than the last reload exists, or after
   * {@link #MAX_COMMITS_BETWEEN_RELOADS} commits in any case (another writer may checkpoint the
   * table). The snapshot a commit leaves is the one it was built on plus that commit: it keeps the
   * log segment the table was loaded with and lists every commit since. Kernel replays those
   * commits for each transaction's domain metadata and for every Delta checkpoint, so without a
   * reload both would grow in time and memory for as long as a job streams.
   *
   * @param checkpointVersion the version of the latest Delta checkpoint this process wrote, or -1
   * @return whether it reloaded
   */
  public boolean reloadIfDue(long checkpointVersion) {
    if (checkpointVersion <= reloadedAtCheckpoint
        && commitsSinceLoad < MAX_COMMITS_BETWEEN_RELOADS) {
      return false;
    }
    refresh();
    reloadedAtCheckpoint = Math.max(reloadedAtCheckpoint, checkpointVersion);
    return true;
  }

  /** The table as messages name it. */
  public String name() {
    return name;
  }

  /** Kernel's engine for this table, for reading it. */
  public Engine engine() {
    return engine;
  }

  /** The snapshot this instance holds. */
  public Snapshot snapshot() {
    return snapshot;
  }

  /**
   * A writer of this table's Delta checkpoints, on this table's storage.
   *
   * @param interval versions between checkpoints; null follows the table's {@code
   *     delta.checkpointInterval}, 0 writes none
   */
  public DeltaCheckpoints checkpoints(Integer interval) {
    return new DeltaCheckpoints(name, AtomicCheckpointEngine.on(conf), interval);
  }

  @Override
  public void close() {
    source.close();
  }

  /**
   * Adds nullable columns at the end of the schema, in one table version.
   *
   * @return the version that holds the new schema
   */
  public long addColumns(List<StructField> columns) {
    StructType schema = snapshot.getSchema();
    for (StructField column : columns) {
      if (!column.isNullable()) {
        throw new IllegalArgumentException(
            "Cannot add column '"
                + column.getName()
                + "' to "
                + name
                + ": an added column must be nullable, since existing rows have no value for it.");
      }
      if (schema.fieldNames().stream().anyMatch(n -> n.equalsIgnoreCase(column.getName()))) {
        throw new IllegalArgumentException(
            "Table " + name + " already has a column '" + column.getName() + "'.");
      }
      schema = schema.add(column);
    }
    Transaction txn =
        snapshot
            .buildUpdateTableTransaction(ENGINE_INFO, Operation.MANUAL_UPDATE)
            .withUpdatedSchema(schema)
            .withMaxRetries(maxCommitRetries)
            .build(engine);
    TransactionCommitResult result = txn.commit(engine, CloseableIterable.emptyIterable());
    Optional<Snapshot> after = result.getPostCommitSnapshot();
    snapshot = source.afterCommit(engine, after.isPresent() ? after.get() : source.latest(engine));
    return result.getVersion();
  }

  /**
   * Appends {@code files} in one table version tagged with transaction ({@code appId}, {@code
   * txnVersion}). If the table already holds that transaction version or a later one for the app
   * id, nothing is written and the result says so.
   */
  public CommitResult commit(String appId, long txnVersion, Iterable<DataFile> files) {
    for (int attempt = 1; ; attempt++) {
      try {
        return commitOnce(appId, txnVersion, files).withConflicts(attempt - 1);
      } catch (ConcurrentWriteException e) {
        // Kernel could not rebase onto a concurrent commit (catalog-managed tables are not
        // rebased). The append is blind and its transaction id guards against doubles, so it is
        // rebuilt on the latest snapshot, unless the schema moved under it.
        StructType schema = snapshot.getSchema();
        refresh();
        if (attempt >= MAX_CONFLICT_ATTEMPTS || !schema.equals(snapshot.getSchema())) {
          throw new IllegalStateException(TableErrors.conflict(name, appId, txnVersion, e), e);
        }
        LOG.info(
            "Commit of {} (appId {}, txn {}) met a concurrent commit; retrying on version {}",
            name,
            appId,
            txnVersion,
            snapshot.getVersion());
      }
    }
  }

  private CommitResult commitOnce(String appId, long txnVersion, Iterable<DataFile> files)
      throws ConcurrentWriteException {
    try {
      return tryCommit(appId, txnVersion, files);
    } catch (CommitStateUnknownException e) {
      // The commit may or may not have landed: the transaction id decides.
      LOG.warn(
          "Commit of {} (appId {}, txn {}) has an unknown outcome; reloading the table to find out",
          name,
          appId,
          txnVersion,
          e);
      refresh();
      long recorded = transactionVersion(appId);
      if (recorded == txnVersion) {
        // This attempt landed; only its response was lost.
        return new CommitResult(true, snapshot.getVersion(), recorded, 1, 0, 0);
      }
      if (recorded > txnVersion) {
        return CommitResult.alreadyCommitted(snapshot.getVersion(), recorded).plusRetry();
      }
      return tryCommit(appId, txnVersion, files).plusRetry();
    }
  }

  private CommitResult tryCommit(String appId, long txnVersion, Iterable<DataFile> files)
      throws ConcurrentWriteException {
    Transaction txn;
    try {
      txn =
          snapshot
              .buildUpdateTableTransaction(ENGINE_INFO, Operation.STREAMING_UPDATE)
              .withTransactionId(appId, txnVersion)
              .withMaxRetries(maxCommitRetries)
              .build(engine);
    } catch (ConcurrentTransactionException e) {
      return CommitResult.alreadyCommitted(snapshot.getVersion(), transactionVersion(appId));
    }
    Row state = txn.getTransactionState(engine);
    TransactionCommitResult result;
    try {
      result = txn.commit(engine, AppendActions.of(engine, state, snapshot, writeContexts, files));
    } catch (ConcurrentTransactionException e) {
      refresh();
      return CommitResult.alreadyCommitted(snapshot.getVersion(), transactionVersion(appId));
    }
    Optional<Snapshot> after = result.getPostCommitSnapshot();
    Snapshot committed = after.isPresent() ? after.get() : source.latest(engine);
    long publishStarted = System.nanoTime();
    snapshot = source.afterCommit(engine, committed);
    long publishMillis = (System.nanoTime() - publishStarted) / 1_000_000;
    commitsSinceLoad++;
    // Kernel's post-commit hooks are not run here: Delta checkpoints are written off the commit
    // path by DeltaCheckpoints, through a writer that never leaves a partial checkpoint file.
    long attempts = result.getTransactionReport().getTransactionMetrics().getNumCommitAttempts();
    return new CommitResult(
        true, result.getVersion(), txnVersion, (int) Math.max(0, attempts - 1), 0, publishMillis);
  }

  private static List<String> lowerCase(List<String> names) {
    return names.stream().map(n -> n.toLowerCase(java.util.Locale.ROOT)).toList();
  }
}
