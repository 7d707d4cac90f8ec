/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.commit;

import io.delta.kernel.data.Row;
import io.delta.kernel.utils.CloseableIterable;
import io.github.flinkdelta.core.deletion.DeletionVectorDescriptor;
import io.github.flinkdelta.core.deletion.DeletionVectorReader;
import io.github.flinkdelta.core.deletion.DeletionVectorWriter;
import io.github.flinkdelta.core.deletion.DeletionVectors;
import io.github.flinkdelta.core.deletion.RowPositions;
import io.github.flinkdelta.core.kernel.AddAction;
import io.github.flinkdelta.core.log.LiveFiles;
import io.github.flinkdelta.core.log.LiveFiles.LiveFile;
import io.github.flinkdelta.core.upsert.RewriteLayout;
import io.github.flinkdelta.core.write.DataFile;
import io.github.flinkdelta.core.write.FileIds;
import io.github.flinkdelta.core.write.RowLocation;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.PrimitiveIterator;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;

/**
 * The actions of a version that commits the compactions of an upsert sink's writers, planned on the
 * table as it is when it commits, after the checkpoint's own version: a {@code remove} of each
 * rewritten file still in the table, and an {@code add} of each file written in their place, all
 * with {@code dataChange = false}.
 *
 * <p>The rewrite read its inputs some versions earlier. Every row deleted in an input since (by the
 * checkpoint's own version, or by another writer) is deleted at its place in the outputs too, found
 * through the rewrite's {@link RewriteLayout}; an input another writer removed meanwhile has all
 * its rows deleted in the outputs, and is not removed again. So the version removes exactly the
 * rows it adds, as the protocol asks of a version without data change, and never brings back a row
 * that is gone. An input whose entry holds rows the rewrite did not read (another writer restored
 * them) stays in the table, and its rows in the outputs are deleted.
 */
final class RewriteCommit {

  private final List<Row> removes;
  private final Map<Long, DeletionVectorDescriptor> outputVectors;
  private final Map<Long, RowPositions> outputRows;
  private final Set<Long> emptiedOutputs;
  private final Set<Long> removedInputs;
  private final List<LiveFile> addedEntries = new ArrayList<>();
  private final CloseableIterable<Row> appends;
  private final URI root;
  private final int keptInputs;

  private RewriteCommit(
      List<Row> removes,
      Map<Long, DeletionVectorDescriptor> outputVectors,
      Map<Long, RowPositions> outputRows,
      Set<Long> emptiedOutputs,
      Set<Long> removedInputs,
      CloseableIterable<Row> appends,
      URI root,
      int keptInputs) {
    this.removes = removes;
    this.outputVectors = outputVectors;
    this.outputRows = outputRows;
    this.emptiedOutputs = emptiedOutputs;
    this.removedInputs = removedInputs;
    this.appends = appends;
    this.root = root;
    this.keptInputs = keptInputs;
  }

  /**
   * Plans the version on the table whose files {@code live} lists, and writes the outputs' deletion
   * vectors.
   *
   * @param outputs the files the compactions wrote
   * @param appends Kernel's add actions of {@code outputs}
   */
  static RewriteCommit plan(
      String tableName,
      Configuration conf,
      String tableRoot,
      LiveFiles live,
      List<RewriteLayout> layouts,
      List<DataFile> outputs,
      CloseableIterable<Row> appends,
      WrittenVectors written) {
    Map<Long, DataFile> outputsById = new HashMap<>();
    outputs.forEach(file -> outputsById.put(FileIds.of(file.path()), file));
    Map<Long, RowPositions> deletedInOutputs = new HashMap<>();
    List<Row> removes = new ArrayList<>();
    Set<Long> removedInputs = new HashSet<>();
    int kept = 0;
    long now = System.currentTimeMillis();
    for (RewriteLayout layout : layouts) {
      for (RewriteLayout.Input input : layout.inputs()) {
        RowPositions read = rows(conf, tableRoot, input.readVector(), tableName);
        LiveFile current = live.get(input.fileId());
        RowPositions gone;
        if (current == null) {
          gone = null; // every row the rewrite read
        } else {
          RowPositions deletedNow = currentRows(conf, tableRoot, current, written, tableName);
          RowPositions restored = read.copy();
          restored.removeAll(deletedNow);
          if (!restored.isEmpty()) {
            gone = null;
            kept++;
          } else {
            checkRows(tableName, current, read, input);
            gone = deletedNow.copy();
            gone.removeAll(read);
            removes.add(current.removeAction(false, now));
            removedInputs.add(current.id());
          }
        }
        deleteMoved(input, read, gone, deletedInOutputs);
      }
    }
    Map<Long, DeletionVectorDescriptor> vectors = new HashMap<>();
    Set<Long> emptied = new HashSet<>();
    try (DeletionVectorWriter writer = DeletionVectorWriter.create(conf, tableRoot)) {
      for (Map.Entry<Long, RowPositions> entry : deletedInOutputs.entrySet()) {
        DataFile output = outputsById.get(entry.getKey());
        if (output == null) {
          throw new IllegalStateException(
              String.format(
                  "A compaction of Delta table %s names an output file %s it did not hand on",
                  tableName, Long.toHexString(entry.getKey())));
        }
        RowPositions rows = entry.getValue();
        if (rows.last() >= output.numRecords()) {
          throw new IllegalStateException(
              String.format(
                  "A compaction of Delta table %s deletes row %d of its output %s of %d rows",
                  tableName, rows.last(), output.path(), output.numRecords()));
        }
        if (rows.cardinality() == output.numRecords()) {
          emptied.add(entry.getKey());
        } else {
          vectors.put(entry.getKey(), writer.write(rows));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot write the deletion vectors of a compaction of Delta table " + tableName, e);
    }
    return new RewriteCommit(
        removes,
        vectors,
        deletedInOutputs,
        emptied,
        removedInputs,
        appends,
        URI.create(tableRoot),
        kept);
  }

  /** Deletes in the outputs the rows of {@code input} that are {@code gone}; null for all. */
  private static void deleteMoved(
      RewriteLayout.Input input,
      RowPositions read,
      RowPositions gone,
      Map<Long, RowPositions> deletedInOutputs) {
    if (gone == null) {
      for (RewriteLayout.Run run : input.runs()) {
        RowPositions rows =
            deletedInOutputs.computeIfAbsent(run.outputId(), id -> new RowPositions());
        for (long i = 0; i < run.rows(); i++) {
          rows.add(run.firstPosition() + i);
        }
      }
      return;
    }
    PrimitiveIterator.OfLong positions = gone.iterator();
    while (positions.hasNext()) {
      RowLocation moved = RewriteLayout.outputPosition(input, read, positions.nextLong());
      if (moved != null) {
        deletedInOutputs
            .computeIfAbsent(moved.fileId(), id -> new RowPositions())
            .add(moved.position());
      }
    }
  }

  private static void checkRows(
      String tableName, LiveFile current, RowPositions read, RewriteLayout.Input input) {
    long numRecords = DeletionVectors.numRecords(current.statsJson());
    if (numRecords >= 0 && numRecords - read.cardinality() != input.rowsRead()) {
      throw new IllegalStateException(
          String.format(
              "A compaction of Delta table %s read %d rows of data file %s, which held %d rows"
                  + " less the %d its deletion vector deleted then: the sink's compaction does"
                  + " not match the table",
              tableName, input.rowsRead(), current.path(), numRecords, read.cardinality()));
    }
  }

  private static RowPositions currentRows(
      Configuration conf,
      String tableRoot,
      LiveFile file,
      WrittenVectors written,
      String tableName) {
    if (file.deletionVector() == null) {
      return new RowPositions();
    }
    RowPositions known = written.rowsOf(file.id(), file.deletionVector());
    return known != null ? known : rows(conf, tableRoot, file.deletionVector(), tableName);
  }

  private static RowPositions rows(
      Configuration conf, String tableRoot, DeletionVectorDescriptor vector, String tableName) {
    if (vector == null) {
      return new RowPositions();
    }
    try {
      return DeletionVectorReader.read(conf, tableRoot, vector);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot read a deletion vector of Delta table " + tableName, e);
    }
  }

  /** Inputs left in the table because another writer restored rows the rewrite had not read. */
  int keptInputs() {
    return keptInputs;
  }

  /** The ids of the inputs this version removes. */
  Set<Long> removedInputs() {
    return removedInputs;
  }

  /** The outputs it adds, as the next version lists them; complete once the actions were read. */
  List<LiveFile> addedEntries() {
    return addedEntries;
  }

  /** Tells {@code written} what this commit, now committed, did to the table's vectors. */
  void committedInto(WrittenVectors written) {
    removedInputs.forEach(written::forget);
    outputVectors.forEach((id, vector) -> written.committed(id, vector, outputRows.get(id)));
  }

  /** The version's actions; each iteration starts afresh, as Kernel iterates more than once. */
  CloseableIterable<Row> actions() {
    return CommitActions.of(removes, appends, addedEntries::clear, this::output);
  }

  /** An output's add, with {@code dataChange = false} and its vector; null for an emptied one. */
  private Row output(Row action) {
    AddAction add = AddAction.inAction(action);
    if (add == null) {
      return action;
    }
    LiveFile entry = LiveFile.of(add, root);
    if (emptiedOutputs.contains(entry.id())) {
      return null;
    }
    DeletionVectorDescriptor vector = outputVectors.get(entry.id());
    LiveFile added = vector == null ? entry : entry.withVector(vector);
    addedEntries.add(added);
    return AddAction.addAction(added.addRow(false));
  }
}
