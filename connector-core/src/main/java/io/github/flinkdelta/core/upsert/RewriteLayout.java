/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.upsert;

import io.github.flinkdelta.core.deletion.DeletionVectorDescriptor;
import io.github.flinkdelta.core.deletion.RowPositions;
import io.github.flinkdelta.core.write.RowLocation;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.annotation.Internal;

/**
 * Where an upsert writer's compaction put the rows of the files it rewrote: for each input file,
 * the deletion vector it read the file with, and the runs of output rows its live rows went to, in
 * the order of their positions. The k-th row the rewrite read from an input (the k-th position not
 * in its read vector) is the k-th row of the input's runs, taken one after the other.
 *
 * <p>That is what lets a commit of the rewrite, made later on a table other writers changed
 * meanwhile, carry their changes over ({@link #outputPosition}): a row deleted in an input since
 * the rewrite read it is deleted at its place in the output, so the rewrite never brings back a row
 * that is gone. The layout is small (a few numbers per file), unlike a map of every moved row.
 *
 * @param readVersion the table version the rewrite read its inputs at
 * @param inputs the rewritten files, in the order the rewrite read them
 */
@Internal
public record RewriteLayout(long readVersion, List<Input> inputs) {

  public RewriteLayout {
    inputs = List.copyOf(inputs);
    if (inputs.isEmpty()) {
      throw new IllegalArgumentException("A rewrite has input files");
    }
  }

  /**
   * One rewritten file.
   *
   * @param fileId the file's {@link io.github.flinkdelta.core.write.FileIds id}
   * @param readVector the deletion vector of the table entry the rewrite read; null for none
   * @param runs where its live rows went, in position order
   */
  public record Input(long fileId, DeletionVectorDescriptor readVector, List<Run> runs) {
    public Input {
      runs = List.copyOf(runs);
    }

    /** The number of rows the rewrite read from the file. */
    public long rowsRead() {
      return runs.stream().mapToLong(Run::rows).sum();
    }
  }

  /**
   * Consecutive rows of one output file.
   *
   * @param outputId the output file's id
   * @param firstPosition the position of the run's first row in the output
   * @param rows the run's length
   */
  public record Run(long outputId, long firstPosition, long rows) {
    public Run {
      if (firstPosition < 0 || rows <= 0) {
        throw new IllegalArgumentException(
            "A run of " + rows + " rows at position " + firstPosition);
      }
    }
  }

  /** The ids of the rewritten files. */
  public Set<Long> inputIds() {
    Set<Long> ids = new LinkedHashSet<>();
    inputs.forEach(input -> ids.add(input.fileId()));
    return ids;
  }

  /** The ids of the files the rewrite wrote. */
  public Set<Long> outputIds() {
    Set<Long> ids = new LinkedHashSet<>();
    inputs.forEach(input -> input.runs().forEach(run -> ids.add(run.outputId())));
    return ids;
  }

  /** The input of {@code fileId}, or null when the rewrite did not read that file. */
  public Input input(long fileId) {
    for (Input input : inputs) {
      if (input.fileId() == fileId) {
        return input;
      }
    }
    return null;
  }

  /**
   * Where the row at {@code position} of {@code input} went, given the rows of its read vector.
   *
   * @return null when the rewrite did not read the row: the read vector held it
   */
  public static RowLocation outputPosition(Input input, RowPositions readDeleted, long position) {
    if (readDeleted.contains(position)) {
      return null;
    }
    long rank = position - readDeleted.countBelow(position);
    for (Run run : input.runs()) {
      if (rank < run.rows()) {
        return new RowLocation(run.outputId(), run.firstPosition() + rank);
      }
      rank -= run.rows();
    }
    throw new IllegalStateException(
        String.format(
            "Row %d of rewritten data file %s lies past the %d rows the rewrite read from it",
            position, Long.toHexString(input.fileId()), input.rowsRead()));
  }

  /**
   * Builds a layout from the moves of a rewrite, reported row after row in the order it wrote them.
   */
  public static final class Builder implements MovedRowConsumer {

    private final List<Long> order = new ArrayList<>();
    private final Map<Long, DeletionVectorDescriptor> readVectors;
    private final Map<Long, List<Run>> runs = new HashMap<>();
    private long currentInput = Long.MIN_VALUE;
    private boolean started;
    private long lastPosition;
    private long runOutput;
    private long runFirst;
    private long runRows;

    /**
     * @param readVectors the read deletion vector of each input file, by id (null values allowed)
     */
    public Builder(Map<Long, DeletionVectorDescriptor> readVectors) {
      this.readVectors = new HashMap<>(readVectors);
    }

    @Override
    public void accept(String key, long fromFile, long fromPosition, RowLocation to) {
      if (!started || fromFile != currentInput) {
        closeRun();
        if (runs.containsKey(fromFile)) {
          throw new IllegalStateException(
              "A rewrite read the rows of data file "
                  + Long.toHexString(fromFile)
                  + " in two parts; its layout cannot be described");
        }
        runs.put(fromFile, new ArrayList<>());
        order.add(fromFile);
        currentInput = fromFile;
        started = true;
        lastPosition = -1;
      }
      if (fromPosition <= lastPosition) {
        throw new IllegalStateException(
            "A rewrite read the rows of data file "
                + Long.toHexString(fromFile)
                + " out of position order");
      }
      lastPosition = fromPosition;
      if (runRows > 0 && to.fileId() == runOutput && to.position() == runFirst + runRows) {
        runRows++;
      } else {
        closeRun();
        runOutput = to.fileId();
        runFirst = to.position();
        runRows = 1;
      }
    }

    private void closeRun() {
      if (runRows > 0) {
        runs.get(currentInput).add(new Run(runOutput, runFirst, runRows));
        runRows = 0;
      }
    }

    /**
     * The layout; an input file none of whose rows the rewrite read (all deleted) is an input
     * without runs, so that its removal is still committed.
     */
    public RewriteLayout build(long readVersion, Iterable<Long> allInputs) {
      closeRun();
      List<Input> inputs = new ArrayList<>();
      for (long id : order) {
        inputs.add(new Input(id, readVectors.get(id), runs.get(id)));
      }
      for (long id : allInputs) {
        if (!runs.containsKey(id)) {
          inputs.add(new Input(id, readVectors.get(id), List.of()));
        }
      }
      return new RewriteLayout(readVersion, inputs);
    }
  }

  /** Writes the layout. */
  public void writeTo(DataOutput out) throws IOException {
    out.writeLong(readVersion);
    out.writeInt(inputs.size());
    for (Input input : inputs) {
      out.writeLong(input.fileId());
      DeletionVectorDescriptor vector = input.readVector();
      out.writeBoolean(vector != null);
      if (vector != null) {
        out.writeUTF(vector.storageType());
        byte[] path = vector.pathOrInlineDv().getBytes(StandardCharsets.UTF_8);
        out.writeInt(path.length);
        out.write(path);
        out.writeInt(vector.offset() == null ? -1 : vector.offset());
        out.writeInt(vector.sizeInBytes());
        out.writeLong(vector.cardinality());
      }
      out.writeInt(input.runs().size());
      for (Run run : input.runs()) {
        out.writeLong(run.outputId());
        out.writeLong(run.firstPosition());
        out.writeLong(run.rows());
      }
    }
  }

  /** Reads what {@link #writeTo} wrote. */
  public static RewriteLayout readFrom(DataInput in) throws IOException {
    long readVersion = in.readLong();
    int count = in.readInt();
    if (count <= 0 || count > MAX_COUNT) {
      throw new IOException("Corrupt sink state: a rewrite of " + count + " files");
    }
    List<Input> inputs = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      long id = in.readLong();
      DeletionVectorDescriptor vector = null;
      if (in.readBoolean()) {
        String type = in.readUTF();
        int length = in.readInt();
        if (length < 0 || length > MAX_VECTOR_PATH) {
          throw new IOException("Corrupt sink state: a deletion vector path of " + length);
        }
        byte[] path = new byte[length];
        in.readFully(path);
        int offset = in.readInt();
        vector =
            new DeletionVectorDescriptor(
                type,
                new String(path, StandardCharsets.UTF_8),
                offset < 0 ? null : offset,
                in.readInt(),
                in.readLong());
      }
      int runCount = in.readInt();
      if (runCount < 0 || runCount > MAX_COUNT) {
        throw new IOException("Corrupt sink state: " + runCount + " runs of a rewritten file");
      }
      List<Run> runs = new ArrayList<>(runCount);
      for (int r = 0; r < runCount; r++) {
        runs.add(new Run(in.readLong(), in.readLong(), in.readLong()));
      }
      inputs.add(new Input(id, vector, runs));
    }
    return new RewriteLayout(readVersion, inputs);
  }

  private static final int MAX_COUNT = 1 << 24;
  private static final int MAX_VECTOR_PATH = 1 << 26;
}
