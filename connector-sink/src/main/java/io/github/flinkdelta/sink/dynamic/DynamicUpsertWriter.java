/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.dynamic;

import io.github.flinkdelta.core.upsert.PendingWrites;
import io.github.flinkdelta.core.write.SharedWriteBudget;
import io.github.flinkdelta.sink.DeltaSinkOptions;
import io.github.flinkdelta.sink.internal.BackgroundThreads;
import io.github.flinkdelta.sink.internal.DeltaSinkConfig;
import io.github.flinkdelta.sink.upsert.IndexKeys;
import io.github.flinkdelta.sink.upsert.KeyIndexLoader;
import io.github.flinkdelta.sink.upsert.TableUpsertWriter;
import io.github.flinkdelta.sink.upsert.UpsertKeyIndex;
import io.github.flinkdelta.sink.upsert.UpsertWriterState;
import io.github.flinkdelta.sink.writer.DeltaWriteResult;
import io.github.flinkdelta.sink.writer.WriteResultRows;
import java.io.IOException;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.IntPredicate;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.runtime.state.KeyGroupRange;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.utils.ProjectedRowData;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The upsert writer of a dynamic sink: a keyed operator (records arrive keyed by table and primary
 * key, {@link DynamicRecordKeys}) that runs the single-table sink's upsert writing ({@link
 * TableUpsertWriter}) for each table with a primary key, on one key index shared by all of them,
 * each table's keys behind its name ({@link IndexKeys}). Files of every table count against one
 * memory budget. Tables not written for a while are closed right after a checkpoint's hand-over
 * once more than {@link DynamicSinkOptions#MAX_CACHED_TABLES} are open; what their state holds is
 * kept and given back when their next record comes.
 *
 * <p>A table dropped and created anew under its name has another id: its writer, what state kept of
 * it and its keys in the index are dropped, and its keys are read from the new table. The router
 * sends the records that follow a drop in a shape of their own, so that they are looked up afresh.
 */
final class DynamicUpsertWriter extends AbstractStreamOperator<RowData>
    implements OneInputStreamOperator<DynamicRecord, RowData>, BoundedOneInput {

  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(DynamicUpsertWriter.class);

  private final DynamicSinkConfig config;

  private transient UpsertKeyIndex index;
  private transient DynamicUpsertState state;
  private transient String appId;
  private transient Map<String, UpsertWriterState.Restored> idle;

  /** Per table not open here, the id of the table its state is of, where state named it. */
  private transient Map<String, String> idleIds;

  /** Per table not open here, the key groups whose entries of it the index holds. */
  private transient Map<String, List<KeyGroupRange>> idleCoverage;

  private transient Map<String, Upserts> tables;
  private transient DynamicTableResolver resolver;
  private transient SharedWriteBudget budget;
  private transient ExecutorService followers;
  private transient ExecutorService compactions;
  private transient DynamicSerializers.WriteResults serializer;
  private transient int maxTables;

  /** One table's writer and the shape of its last record. */
  private static final class Upserts {
    final String prefix;
    final TableUpsertWriter writer;
    final String tableId;
    DynamicTable shape;
    ResolvedShape resolved;
    ProjectedRowData projection;

    Upserts(String prefix, TableUpsertWriter writer, String tableId) {
      this.prefix = prefix;
      this.writer = writer;
      this.tableId = tableId;
    }
  }

  DynamicUpsertWriter(DynamicSinkConfig config) {
    this.config = config;
  }

  @Override
  public void initializeState(StateInitializationContext context) throws Exception {
    super.initializeState(context);
    state = new DynamicUpsertState(context.getOperatorStateStore());
    DynamicUpsertState.Restored restored = state.restore();
    appId =
        config.appId() != null
            ? config.appId()
            : restored.appId() != null ? restored.appId() : config.defaultAppId();
    idle = new HashMap<>(restored.tables());
    idleCoverage = new HashMap<>(restored.covered());
    idleIds = new HashMap<>(restored.tableIds());
    Configuration options = config.sinkOptions();
    index =
        KeyIndexLoader.open(
            options.get(DeltaSinkOptions.UPSERT_KEY_INDEX),
            "the tables of a dynamic sink",
            subtask(),
            IndexKeys.of(keyGroupRange(), maxParallelism()),
            getKeyedStateBackend(),
            context.getRawKeyedStateInputs(),
            restored.appId() != null,
            restored.onHeap(),
            0);
  }

  @Override
  protected boolean isUsingCustomRawKeyedState() {
    return true;
  }

  private int maxParallelism() {
    return getRuntimeContext().getTaskInfo().getMaxNumberOfParallelSubtasks();
  }

  private int parallelism() {
    return getRuntimeContext().getTaskInfo().getNumberOfParallelSubtasks();
  }

  private int subtask() {
    return getRuntimeContext().getTaskInfo().getIndexOfThisSubtask();
  }

  private KeyGroupRange keyGroupRange() {
    return KeyGroupRangeAssignment.computeKeyGroupRangeForOperatorIndex(
        maxParallelism(), parallelism(), subtask());
  }

  @Override
  public void open() throws Exception {
    super.open();
    Configuration options = config.sinkOptions();
    tables = new LinkedHashMap<>(16, 0.75f, true);
    resolver = new DynamicTableResolver(config);
    budget = new SharedWriteBudget(options.get(DeltaSinkOptions.BUFFER_BUDGET).getBytes());
    maxTables = options.get(DynamicSinkOptions.MAX_CACHED_TABLES);
    serializer = new DynamicSerializers.WriteResults();
    ClassLoader loader = DynamicUpsertWriter.class.getClassLoader();
    followers = backgroundThread("delta-dynamic-index-follower-" + subtask(), loader);
    compactions = backgroundThread("delta-dynamic-compaction-" + subtask(), loader);
    getMetricGroup().addGroup("delta").gauge("openTables", () -> tables.size());
  }

  @Override
  public void processElement(StreamRecord<DynamicRecord> element) throws Exception {
    DynamicRecord record = element.getValue();
    // Read before the table is opened: loading its index moves the backend's current key.
    String indexKey = (String) getCurrentKey();
    Upserts table = tableOf(record.table());
    String key = indexKey.substring(table.prefix.length());
    RowData row = record.row();
    table.writer.write(key, table.projection == null ? row : table.projection.replaceRow(row));
  }

  private Upserts tableOf(DynamicTable shape) throws Exception {
    Upserts table = tables.get(shape.name());
    if (table != null && table.shape == shape) {
      return table;
    }
    ResolvedShape resolved = resolver.resolve(shape);
    String name = shape.name();
    if (table != null && !table.tableId.equals(resolved.tableId())) {
      table.writer.close();
      tables.remove(name);
      table = null;
      resolved = startAfresh(name, shape);
    }
    DeltaSinkConfig tableConfig = config.upsertTableConfig(name, resolved);
    if (table == null) {
      String prefix = DynamicRecordKeys.prefixOf(name);
      String restoredId = idleIds.remove(name);
      if (restoredId != null && !restoredId.equals(resolved.tableId())) {
        resolved = startAfresh(name, shape);
        tableConfig = config.upsertTableConfig(name, resolved);
      }
      UpsertWriterState.Restored restored = idle.remove(name);
      List<KeyGroupRange> covered = idleCoverage.remove(name);
      // Key groups of this subtask whose entries of the table no restored subtask kept: their
      // owners before a rescale never read the table's keys (no record of it reached them).
      IntPredicate unbuilt =
          group -> covered == null || covered.stream().noneMatch(r -> r.contains(group));
      TableUpsertWriter writer =
          new TableUpsertWriter(
              tableConfig,
              subtask(),
              parallelism(),
              new IndexKeys(prefix, keyGroupRange(), maxParallelism()),
              index,
              restored != null
                  ? restored
                  : new UpsertWriterState.Restored(
                      false, -1, 0, -1, index.onHeap(), appId, new PendingWrites()),
              unbuilt,
              result -> handOver(name, result));
      writer.open(
          new UnregisteredMetricsGroup(),
          (files, filePrefix) ->
              budget.newWriter(
                  files.layout(),
                  files.storageConf(),
                  files.tablePath(),
                  files.writeOptions(),
                  filePrefix,
                  false),
          followers,
          config.sinkOptions().get(DynamicSinkOptions.FOLLOW_INTERVAL),
          compactions);
      table = new Upserts(prefix, writer, resolved.tableId());
      tables.put(name, table);
    } else if (resolved != table.resolved) {
      table.writer.writeFilesOf(tableConfig);
    }
    table.shape = shape;
    table.resolved = resolved;
    table.projection = resolved.projection();
    return table;
  }

  /**
   * Forgets what this subtask knew of table {@code name}, which was dropped and created anew: its
   * state, its keys in the index and its shapes, looking {@code shape} up again.
   */
  private ResolvedShape startAfresh(String name, DynamicTable shape) throws Exception {
    idle.remove(name);
    idleCoverage.remove(name);
    idleIds.remove(name);
    String prefix = DynamicRecordKeys.prefixOf(name);
    index.removeIf(key -> key.startsWith(prefix));
    resolver.forget(name);
    ResolvedShape resolved = resolver.resolve(shape);
    LOG.info(
        "Upsert writer {} writes table {} afresh: it was dropped and created anew (id {})",
        subtask(),
        name,
        resolved.tableId());
    return resolved;
  }

  private void handOver(String table, DeltaWriteResult result) throws IOException {
    byte[] bytes =
        serializer.serialize(new DynamicWriteResult(table, result.files(), result.deletes()));
    output.collect(new StreamRecord<>(WriteResultRows.of(bytes)));
  }

  @Override
  public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
    super.prepareSnapshotPreBarrier(checkpointId);
    for (Upserts table : tables.values()) {
      table.writer.prepareSnapshotPreBarrier(checkpointId);
    }
    closeLeastRecentlyUsed();
  }

  /** Closes the tables used least recently beyond the cache's size, keeping what state holds. */
  private void closeLeastRecentlyUsed() {
    Iterator<Map.Entry<String, Upserts>> it = tables.entrySet().iterator();
    while (tables.size() > maxTables) {
      Map.Entry<String, Upserts> eldest = it.next();
      idle.put(eldest.getKey(), eldest.getValue().writer.state(index.onHeap()));
      idleCoverage.put(eldest.getKey(), List.of(keyGroupRange()));
      idleIds.put(eldest.getKey(), eldest.getValue().tableId);
      eldest.getValue().writer.close();
      it.remove();
    }
  }

  @Override
  public void endInput() throws Exception {
    for (Upserts table : tables.values()) {
      table.writer.endInput();
    }
  }

  @Override
  public void snapshotState(StateSnapshotContext context) throws Exception {
    super.snapshotState(context);
    Map<String, UpsertWriterState.Restored> all = new HashMap<>(idle);
    Map<String, List<KeyGroupRange>> covered = new HashMap<>(idleCoverage);
    Map<String, String> ids = new HashMap<>(idleIds);
    tables.forEach(
        (name, table) -> {
          all.put(name, table.writer.state(index.onHeap()));
          // An open table's entries are complete for every key group of this subtask.
          covered.put(name, List.of(keyGroupRange()));
          ids.put(name, table.tableId);
        });
    state.snapshot(appId, index.onHeap(), all, covered, ids);
    index.snapshotState(context);
  }

  private static ExecutorService backgroundThread(String name, ClassLoader loader) {
    return Executors.newSingleThreadExecutor(
        task -> {
          Thread thread = new Thread(task, name);
          thread.setDaemon(true);
          thread.setContextClassLoader(loader);
          return thread;
        });
  }

  @Override
  public void close() throws Exception {
    try {
      if (tables != null) {
        for (Upserts table : tables.values()) {
          table.writer.close();
        }
      }
    } finally {
      try {
        if (followers != null) {
          followers.shutdownNow();
        }
        if (compactions != null) {
          // Runs in flight finish for a moment; the closed tables' releases queued behind them run.
          BackgroundThreads.stopShared(compactions);
        }
      } finally {
        super.close();
      }
    }
  }
}
