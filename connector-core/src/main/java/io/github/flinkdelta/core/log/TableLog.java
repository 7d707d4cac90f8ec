package io.github.flinkdelta.core.log;

import io.delta.kernel.CommitActions;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.data.Row;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.internal.DeltaLogActionUtils.DeltaAction;
import io.delta.kernel.internal.actions.AddFile;
import io.delta.kernel.internal.actions.RemoveFile;
import io.delta.kernel.internal.actions.SetTransaction;
import io.delta.kernel.internal.util.VectorUtils;
import io.delta.kernel.utils.CloseableIterator;
import io.github.flinkdelta.core.catalog.TableHistory;
import io.github.flinkdelta.core.deletion.DeletionVectorDescriptor;
import io.github.flinkdelta.core.deletion.DeletionVectors;
import io.github.flinkdelta.core.log.LiveFiles.LiveFile;
import io.github.flinkdelta.core.write.FileIds;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.annotation.Internal;

/**
 * The file actions of a range of a table's versions, each version with the transactions it records:
 * what the committer and the writers of an upsert sink need to follow what other writers did to the
 * table since they last looked, without scanning the table.
 *
 * <p>The actions are read through Kernel's internal {@link AddFile}, {@link RemoveFile} and {@link
 * SetTransaction}, which name their fields as the protocol does: Kernel's public {@code
 * CommitRange} gives actions only as rows (TableLogTest fails when their shape changes).
 */
@Internal
public final class TableLog {

  private static final Set<DeltaAction> ACTIONS =
      Set.of(
          DeltaAction.ADD,
          DeltaAction.REMOVE,
          DeltaAction.TXN,
          DeltaAction.METADATA,
          DeltaAction.PROTOCOL);

  private TableLog() {}

  /**
   * One version's changes.
   *
   * @param transactions the transactions it records: app id to transaction version
   * @param added its add actions, re-adds of a file with a new deletion vector included
   * @param removed its remove actions
   * @param metadataChanged whether it changed the table's metadata or protocol
   */
  public record Version(
      long version,
      Map<String, Long> transactions,
      List<Added> added,
      List<Removed> removed,
      boolean metadataChanged) {

    public Version {
      transactions = Map.copyOf(transactions);
      added = List.copyOf(added);
      removed = List.copyOf(removed);
    }

    /** Whether the version records a transaction of {@code appId}. */
    boolean isOf(String appId) {
      return transactions.containsKey(appId);
    }
  }

  /** An add action: the file's entry, and whether the add says it changes data. */
  public record Added(LiveFile file, boolean dataChange) {}

  /**
   * A remove action.
   *
   * @param relativePath the path relative to the table root, decoded
   * @param partitionValues the partition values it names; null when the action has none
   * @param size the file's size; -1 when the action has none (the field is optional)
   * @param vector the deletion vector of the entry it removes; null for none
   */
  public record Removed(
      String relativePath,
      Map<String, String> partitionValues,
      long size,
      DeletionVectorDescriptor vector,
      boolean dataChange) {

    public long id() {
      return FileIds.of(relativePath);
    }
  }

  /** The versions {@code from} through {@code to}, both included, in order. */
  public static List<Version> read(
      Engine engine, TableHistory history, String tableRoot, long from, long to) {
    URI root = URI.create(tableRoot);
    List<Version> versions = new ArrayList<>();
    try (CloseableIterator<CommitActions> commits =
        history.commits(engine, from, to).getCommitActions(engine, ACTIONS)) {
      while (commits.hasNext()) {
        try (CommitActions commit = commits.next()) {
          versions.add(version(commit, root));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
    return versions;
  }

  private static Version version(CommitActions commit, URI root) throws IOException {
    Map<String, Long> transactions = new HashMap<>();
    List<Added> added = new ArrayList<>();
    List<Removed> removed = new ArrayList<>();
    boolean metadata = false;
    try (CloseableIterator<ColumnarBatch> batches = commit.getActions()) {
      while (batches.hasNext()) {
        ColumnarBatch batch = batches.next();
        int addIndex = batch.getSchema().indexOf(DeltaAction.ADD.colName);
        int removeIndex = batch.getSchema().indexOf(DeltaAction.REMOVE.colName);
        int txnIndex = batch.getSchema().indexOf(DeltaAction.TXN.colName);
        int metadataIndex = batch.getSchema().indexOf(DeltaAction.METADATA.colName);
        int protocolIndex = batch.getSchema().indexOf(DeltaAction.PROTOCOL.colName);
        try (CloseableIterator<Row> rows = batch.getRows()) {
          while (rows.hasNext()) {
            Row row = rows.next();
            if (!row.isNullAt(addIndex)) {
              AddFile add = new AddFile(row.getStruct(addIndex));
              added.add(new Added(LiveFile.of(add, root), add.getDataChange()));
            } else if (!row.isNullAt(removeIndex)) {
              removed.add(removed(new RemoveFile(row.getStruct(removeIndex)), root));
            } else if (!row.isNullAt(txnIndex)) {
              SetTransaction txn = SetTransaction.fromRow(row.getStruct(txnIndex));
              transactions.merge(txn.getAppId(), txn.getVersion(), Math::max);
            } else if (!row.isNullAt(metadataIndex) || !row.isNullAt(protocolIndex)) {
              metadata = true;
            }
          }
        }
      }
    }
    return new Version(commit.getVersion(), transactions, added, removed, metadata);
  }

  private static Removed removed(RemoveFile remove, URI root) {
    return new Removed(
        FileIds.relativePath(remove.getPath(), root),
        remove.getPartitionValues().map(VectorUtils::<String, String>toJavaMap).orElse(null),
        remove.getSize().orElse(-1L),
        remove.getDeletionVector().map(DeletionVectors::fromKernel).orElse(null),
        remove.getDataChange());
  }
}
