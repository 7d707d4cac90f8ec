/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.write;

import io.github.flinkdelta.core.write.DataFileCodec.Chunk;
import java.io.ByteArrayOutputStream;
import java.io.DataInput;
import java.io.DataInputStream;
import java.io.DataOutput;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.Inflater;
import org.apache.flink.annotation.Internal;

/**
 * Data files kept compact: encoded and deflated, about a tenth of their size as {@link DataFile}
 * objects, since statistics repeat column names and similar values from file to file. A checkpoint
 * of 100,000 files then takes about 10 MB wherever the sink holds it (the writer's result, the
 * aggregator, the committer, checkpoint state) instead of several hundred.
 *
 * <p>Immutable. Iterating decodes one file at a time, and may be repeated (a retried commit reads
 * the files again). The number of files, rows and bytes are known without decoding.
 */
@Internal
public final class DataFiles implements Iterable<DataFile> {

  private static final DataFiles EMPTY = new DataFiles(List.of());

  private final List<Chunk> chunks;
  private final int size;
  private final long numRecords;
  private final long sizeBytes;

  private DataFiles(List<Chunk> chunks) {
    this.chunks = List.copyOf(chunks);
    int files = 0;
    long records = 0;
    long bytes = 0;
    for (Chunk chunk : this.chunks) {
      files = Math.addExact(files, chunk.size());
      records += chunk.numRecords();
      bytes += chunk.sizeBytes();
    }
    this.size = files;
    this.numRecords = records;
    this.sizeBytes = bytes;
  }

  public static DataFiles empty() {
    return EMPTY;
  }

  public static DataFiles of(Collection<DataFile> files) {
    try (Builder builder = builder()) {
      files.forEach(builder::add);
      return builder.build();
    }
  }

  /** All files of {@code parts}, in order; the parts' bytes are shared, not decoded. */
  public static DataFiles concat(Collection<DataFiles> parts) {
    List<Chunk> chunks = new ArrayList<>();
    parts.forEach(part -> chunks.addAll(part.chunks));
    return new DataFiles(chunks);
  }

  /** Collects files one at a time, deflating as they come. */
  public static Builder builder() {
    return new Builder(Builder.CHUNK_ENCODED_BYTES);
  }

  /** A builder that starts a new chunk after {@code chunkEncodedBytes}; for tests. */
  static Builder builder(int chunkEncodedBytes) {
    return new Builder(chunkEncodedBytes);
  }

  /** The number of files. */
  public int size() {
    return size;
  }

  public boolean isEmpty() {
    return size == 0;
  }

  /** The rows of all files. */
  public long numRecords() {
    return numRecords;
  }

  /** The bytes of all files. */
  public long sizeBytes() {
    return sizeBytes;
  }

  /** The files decoded, all at once; for small sets and tests. */
  public List<DataFile> toList() {
    List<DataFile> files = new ArrayList<>(size);
    forEach(files::add);
    return files;
  }

  /**
   * Decodes the files one at a time. Closing the iterator before its end frees the inflater at once
   * rather than at the next garbage collection.
   */
  @Override
  public FileIterator iterator() {
    return new FileIterator() {
      private final Iterator<Chunk> remaining = chunks.iterator();
      private Inflater inflater;
      private DataInputStream chunk;
      private int leftInChunk;

      @Override
      public boolean hasNext() {
        while (leftInChunk == 0 && remaining.hasNext()) {
          Chunk next = remaining.next();
          inflater = new Inflater();
          chunk = new DataInputStream(next.inflating(inflater));
          leftInChunk = next.size();
        }
        return leftInChunk > 0;
      }

      @Override
      public DataFile next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        try {
          DataFile file = DataFileCodec.readFile(chunk);
          if (--leftInChunk == 0) {
            close();
          }
          return file;
        } catch (IOException e) {
          close();
          // Every chunk was decoded when it was read from state; this is a bug, not corruption.
          throw new UncheckedIOException("Cannot decode data files", e);
        }
      }

      @Override
      public void close() {
        if (inflater != null) {
          inflater.end();
          inflater = null;
        }
        leftInChunk = 0;
      }
    };
  }

  /** An iterator over decoded files that may be closed before its end. */
  public interface FileIterator extends Iterator<DataFile>, AutoCloseable {
    @Override
    void close();
  }

  /**
   * Writes the files as they are held (already deflated): per chunk its file, row and byte counts,
   * its encoded and deflated lengths, and its deflated bytes.
   */
  public void writeTo(DataOutput out) throws IOException {
    out.writeInt(chunks.size());
    for (Chunk chunk : chunks) {
      out.writeInt(chunk.size());
      out.writeLong(chunk.numRecords());
      out.writeLong(chunk.sizeBytes());
      out.writeInt(chunk.encodedLength());
      out.writeInt(chunk.deflated().length);
      out.write(chunk.deflated());
    }
  }

  /**
   * Reads what {@link #writeTo} wrote. Every chunk is decoded once to check it, so corrupt state
   * fails here, with "Corrupt sink state", and not later in a commit.
   */
  public static DataFiles readFrom(DataInput in) throws IOException {
    int count = in.readInt();
    if (count < 0) {
      throw DataFileCodec.corrupt("negative chunk count " + count);
    }
    List<Chunk> chunks = new ArrayList<>(Math.min(count, 1024));
    for (int i = 0; i < count; i++) {
      int files = in.readInt();
      long records = in.readLong();
      long bytes = in.readLong();
      int encodedLength = in.readInt();
      int deflatedLength = in.readInt();
      if (files < 0 || encodedLength < 0 || deflatedLength < 0) {
        throw DataFileCodec.corrupt("negative length in chunk " + i);
      }
      Chunk chunk =
          new Chunk(
              files, records, bytes, encodedLength, DataFileCodec.readBytes(in, deflatedLength));
      chunk.verify();
      chunks.add(chunk);
    }
    return new DataFiles(chunks);
  }

  /**
   * Equal when they hold the same files in the same order. Decodes every file: for tests and small
   * sets, not for the sink's path.
   */
  @Override
  public boolean equals(Object other) {
    return other instanceof DataFiles files
        && size == files.size
        && numRecords == files.numRecords
        && sizeBytes == files.sizeBytes
        && toList().equals(files.toList());
  }

  @Override
  public int hashCode() {
    return toList().hashCode();
  }

  @Override
  public String toString() {
    return "DataFiles[" + size + " files, " + numRecords + " rows, " + sizeBytes + " bytes]";
  }

  /**
   * Collects files one at a time into a deflated stream; only the deflated bytes are held. Close it
   * to free the deflater if {@link #build} is never called.
   */
  public static final class Builder implements AutoCloseable {
    /** Files are deflated in chunks of at most this many encoded bytes, so lengths fit an int. */
    private static final int CHUNK_ENCODED_BYTES = 1 << 30;

    private final int chunkEncodedBytes;
    private final List<Chunk> chunks = new ArrayList<>();
    private Deflater deflater;
    private ByteArrayOutputStream deflated;
    private DataOutputStream encoded;
    private int size;
    private long numRecords;
    private long sizeBytes;
    private boolean built;

    private Builder(int chunkEncodedBytes) {
      this.chunkEncodedBytes = chunkEncodedBytes;
    }

    public Builder add(DataFile file) {
      if (built) {
        throw new IllegalStateException("The builder was built or closed");
      }
      try {
        if (encoded == null) {
          deflater = new Deflater(Deflater.BEST_SPEED);
          deflated = new ByteArrayOutputStream(4096);
          encoded =
              new DataOutputStream(
                  new DeflaterOutputStream(deflated, deflater, DataFileCodec.STREAM_BUFFER_BYTES));
        }
        DataFileCodec.writeFile(file, encoded);
        size++;
        numRecords += file.numRecords();
        sizeBytes += file.sizeBytes();
        if (encoded.size() >= chunkEncodedBytes) {
          finishChunk();
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e); // in-memory streams do not fail
      }
      return this;
    }

    /** The files added so far. The builder takes no more files after this. */
    public DataFiles build() {
      if (built) {
        throw new IllegalStateException("The builder was built or closed");
      }
      try {
        finishChunk();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      } finally {
        close();
      }
      return chunks.isEmpty() ? EMPTY : new DataFiles(chunks);
    }

    private void finishChunk() throws IOException {
      if (encoded == null) {
        return;
      }
      try {
        encoded.close();
      } finally {
        deflater.end();
      }
      chunks.add(new Chunk(size, numRecords, sizeBytes, encoded.size(), deflated.toByteArray()));
      encoded = null;
      deflated = null;
      deflater = null;
      size = 0;
      numRecords = 0;
      sizeBytes = 0;
    }

    @Override
    public void close() {
      built = true;
      if (deflater != null) {
        deflater.end();
      }
      encoded = null;
      deflated = null;
      deflater = null;
    }
  }
}
