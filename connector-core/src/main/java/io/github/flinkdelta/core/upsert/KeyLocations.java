/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.upsert;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.flink.annotation.Internal;

/**
 * A map from keys to the locations of their live rows (file id and row position) that holds no
 * object per key: an open-addressing table (linear probing) of primitive arrays, with the keys'
 * UTF-8 bytes in one byte arena. A lookup allocates nothing for a key of ASCII characters (the
 * decimal digits of an integer key, UUIDs, most identifiers), and a key that is replaced keeps its
 * bytes in place. An entry costs about 40 bytes plus its key's bytes.
 *
 * <p>Not thread-safe: one writer subtask owns each map.
 */
@Internal
public final class KeyLocations {

  private static final int MIN_CAPACITY = 16;
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
  private static final int EMPTY = -1;

  private int[] hashes;
  private int[] keyOffsets;
  private int[] keyLengths;
  private long[] fileIds;
  private long[] positions;
  private int size;

  private byte[] arena = new byte[256];
  private int arenaUsed;
  private int arenaGarbage;

  public KeyLocations() {
    allocate(MIN_CAPACITY);
  }

  /** The number of keys. */
  public int size() {
    return size;
  }

  /**
   * Whether {@code key} has a location; {@link #fileId} and {@link #position} of the returned slot
   * give it.
   *
   * @return the key's slot, or -1 when it has none
   */
  public int find(String key) {
    byte[] utf8 = ascii(key) ? null : key.getBytes(StandardCharsets.UTF_8);
    int hash = spread(key.hashCode());
    int mask = hashes.length - 1;
    for (int slot = hash & mask; ; slot = (slot + 1) & mask) {
      if (keyOffsets[slot] == EMPTY) {
        return -1;
      }
      if (hashes[slot] == hash && matches(slot, key, utf8)) {
        return slot;
      }
    }
  }

  /** The file id of the location in {@code slot}, a slot {@link #find} returned. */
  public long fileId(int slot) {
    return fileIds[slot];
  }

  /** The row position of the location in {@code slot}, a slot {@link #find} returned. */
  public long position(int slot) {
    return positions[slot];
  }

  /** Sets the location of {@code key}, replacing any it had. */
  public void put(String key, long fileId, long position) {
    int slot = find(key);
    if (slot >= 0) {
      fileIds[slot] = fileId;
      positions[slot] = position;
      return;
    }
    byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
    insert(spread(key.hashCode()), bytes, 0, bytes.length, fileId, position);
  }

  /** Removes {@code key}'s location; a key without one is left as it is. */
  public void remove(String key) {
    int slot = find(key);
    if (slot >= 0) {
      removeSlot(slot);
    }
  }

  /** Removes every key. */
  public void clear() {
    allocate(MIN_CAPACITY);
    size = 0;
    arena = new byte[256];
    arenaUsed = 0;
    arenaGarbage = 0;
  }

  /** Receives the entries of a map. */
  @FunctionalInterface
  public interface EntryConsumer {
    void accept(String key, long fileId, long position);
  }

  /** Hands every entry to {@code consumer}, in no particular order. */
  public void forEach(EntryConsumer consumer) {
    for (int slot = 0; slot < hashes.length; slot++) {
      if (keyOffsets[slot] != EMPTY) {
        consumer.accept(
            new String(arena, keyOffsets[slot], keyLengths[slot], StandardCharsets.UTF_8),
            fileIds[slot],
            positions[slot]);
      }
    }
  }

  /**
   * Writes the entries: their number, then for each one its key's length (a variable-length
   * integer), the key's bytes, the file id (eight bytes) and the position (a variable-length
   * integer). Entries are encoded into a buffer of this method's, so that the output sees a few
   * large writes.
   */
  public void writeTo(DataOutput out) throws IOException {
    out.writeInt(size);
    byte[] buffer = new byte[16 * 1024];
    int at = 0;
    for (int slot = 0; slot < hashes.length; slot++) {
      if (keyOffsets[slot] == EMPTY) {
        continue;
      }
      int length = keyLengths[slot];
      int most = 5 + length + 8 + 10;
      if (at + most > buffer.length) {
        out.write(buffer, 0, at);
        at = 0;
        if (most > buffer.length) {
          buffer = new byte[most];
        }
      }
      at = IndexEntries.writeVarint(buffer, at, length);
      System.arraycopy(arena, keyOffsets[slot], buffer, at, length);
      at += length;
      LONGS.set(buffer, at, fileIds[slot]);
      at = IndexEntries.writeVarint(buffer, at + 8, positions[slot]);
    }
    out.write(buffer, 0, at);
  }

  /** Adds the entries {@link #writeTo} wrote, replacing the locations of keys already here. */
  public void readFrom(DataInput in) throws IOException {
    int entries = in.readInt();
    byte[] key = new byte[64];
    for (int i = 0; i < entries; i++) {
      long length = readVarint(in);
      if (length < 0 || length > Integer.MAX_VALUE - 16) {
        throw new IOException("Corrupt key-index state: a key of " + length + " bytes");
      }
      if (length > key.length) {
        key = new byte[(int) Math.max(length, key.length * 2L)];
      }
      in.readFully(key, 0, (int) length);
      long fileId = in.readLong();
      long position = readVarint(in);
      int hash = spread(hashOf(key, (int) length));
      int slot = findBytes(hash, key, (int) length);
      if (slot >= 0) {
        fileIds[slot] = fileId;
        positions[slot] = position;
      } else {
        insert(hash, key, 0, (int) length, fileId, position);
      }
    }
  }

  private static long readVarint(DataInput in) throws IOException {
    long value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      byte next = in.readByte();
      value |= (long) (next & 0x7F) << shift;
      if (next >= 0) {
        return value;
      }
    }
    throw new IOException("Corrupt key-index state: a variable-length integer of over 64 bits");
  }

  private void insert(int hash, byte[] key, int from, int length, long fileId, long position) {
    if ((size + 1) * 3L > hashes.length * 2L) {
      rehash(hashes.length * 2);
    }
    int offset = store(key, from, length);
    int mask = hashes.length - 1;
    int slot = hash & mask;
    while (keyOffsets[slot] != EMPTY) {
      slot = (slot + 1) & mask;
    }
    hashes[slot] = hash;
    keyOffsets[slot] = offset;
    keyLengths[slot] = length;
    fileIds[slot] = fileId;
    positions[slot] = position;
    size++;
  }

  /** Empties {@code slot}, moving later entries of its probe run back so that lookups find them. */
  private void removeSlot(int slot) {
    arenaGarbage += keyLengths[slot];
    int mask = hashes.length - 1;
    int hole = slot;
    for (int next = (hole + 1) & mask; keyOffsets[next] != EMPTY; next = (next + 1) & mask) {
      int home = hashes[next] & mask;
      // The entry at next may fill the hole when its home is not cyclically within (hole, next].
      boolean stays = hole <= next ? hole < home && home <= next : hole < home || home <= next;
      if (!stays) {
        move(next, hole);
        hole = next;
      }
    }
    keyOffsets[hole] = EMPTY;
    size--;
    if (arenaGarbage > 4096 && arenaGarbage > arenaUsed / 2) {
      compactArena();
    }
  }

  private void move(int from, int to) {
    hashes[to] = hashes[from];
    keyOffsets[to] = keyOffsets[from];
    keyLengths[to] = keyLengths[from];
    fileIds[to] = fileIds[from];
    positions[to] = positions[from];
  }

  private int store(byte[] key, int from, int length) {
    if (arenaUsed + length > arena.length) {
      if (arenaGarbage > arenaUsed / 2) {
        compactArena();
      }
      if (arenaUsed + length > arena.length) {
        long grown = Math.max((long) arena.length * 2, (long) arenaUsed + length);
        if (grown > Integer.MAX_VALUE - 16) {
          throw new IllegalStateException(
              "The key index of one key group holds more than 2 GB of keys; raise the job's"
                  + " maximum parallelism so that keys spread over more key groups");
        }
        arena = Arrays.copyOf(arena, (int) grown);
      }
    }
    System.arraycopy(key, from, arena, arenaUsed, length);
    int offset = arenaUsed;
    arenaUsed += length;
    return offset;
  }

  /** Copies the live keys into a new arena, leaving out the bytes of removed keys. */
  private void compactArena() {
    byte[] compacted = new byte[Math.max(256, (arenaUsed - arenaGarbage) * 3 / 2)];
    int used = 0;
    for (int slot = 0; slot < hashes.length; slot++) {
      if (keyOffsets[slot] != EMPTY) {
        System.arraycopy(arena, keyOffsets[slot], compacted, used, keyLengths[slot]);
        keyOffsets[slot] = used;
        used += keyLengths[slot];
      }
    }
    arena = compacted;
    arenaUsed = used;
    arenaGarbage = 0;
  }

  private void rehash(int capacity) {
    int[] oldHashes = hashes;
    int[] oldOffsets = keyOffsets;
    int[] oldLengths = keyLengths;
    long[] oldFileIds = fileIds;
    long[] oldPositions = positions;
    allocate(capacity);
    int mask = capacity - 1;
    for (int from = 0; from < oldHashes.length; from++) {
      if (oldOffsets[from] != EMPTY) {
        int slot = oldHashes[from] & mask;
        while (keyOffsets[slot] != EMPTY) {
          slot = (slot + 1) & mask;
        }
        hashes[slot] = oldHashes[from];
        keyOffsets[slot] = oldOffsets[from];
        keyLengths[slot] = oldLengths[from];
        fileIds[slot] = oldFileIds[from];
        positions[slot] = oldPositions[from];
      }
    }
  }

  private void allocate(int capacity) {
    hashes = new int[capacity];
    keyOffsets = new int[capacity];
    Arrays.fill(keyOffsets, EMPTY);
    keyLengths = new int[capacity];
    fileIds = new long[capacity];
    positions = new long[capacity];
  }

  private boolean matches(int slot, String key, byte[] utf8) {
    int offset = keyOffsets[slot];
    int length = keyLengths[slot];
    if (utf8 != null) {
      return Arrays.equals(arena, offset, offset + length, utf8, 0, utf8.length);
    }
    if (length != key.length()) {
      return false;
    }
    for (int i = 0; i < length; i++) {
      if (arena[offset + i] != (byte) key.charAt(i)) {
        return false;
      }
    }
    return true;
  }

  private int findBytes(int hash, byte[] key, int length) {
    int mask = hashes.length - 1;
    for (int slot = hash & mask; ; slot = (slot + 1) & mask) {
      if (keyOffsets[slot] == EMPTY) {
        return -1;
      }
      if (hashes[slot] == hash
          && Arrays.equals(
              arena, keyOffsets[slot], keyOffsets[slot] + keyLengths[slot], key, 0, length)) {
        return slot;
      }
    }
  }

  private static boolean ascii(String key) {
    for (int i = 0; i < key.length(); i++) {
      if (key.charAt(i) >= 0x80) {
        return false;
      }
    }
    return true;
  }

  /** {@link String#hashCode} of the string whose UTF-8 bytes these are. */
  private static int hashOf(byte[] utf8, int length) {
    int hash = 0;
    for (int i = 0; i < length; i++) {
      if (utf8[i] < 0) {
        return new String(utf8, 0, length, StandardCharsets.UTF_8).hashCode();
      }
      hash = 31 * hash + utf8[i];
    }
    return hash;
  }

  /**
   * Spreads a string's hash over the table's bits. Keys reach a subtask's key groups by a murmur
   * hash of the same value, so this one must differ from it: a Fibonacci multiplication.
   */
  private static int spread(int hash) {
    int mixed = hash * 0x9E3779B9;
    return mixed ^ (mixed >>> 16);
  }
}
