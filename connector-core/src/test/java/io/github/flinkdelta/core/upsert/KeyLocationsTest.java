/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.upsert;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The compact key-to-location map of the heap key index, against a {@link HashMap}. */
class KeyLocationsTest {

  /** A location as the reference map holds it. */
  private record Location(long fileId, long position) {}

  @Test
  void randomPutsAndRemovesAgreeWithAHashMapThroughGrowthAndArenaCompaction() throws IOException {
    KeyLocations map = new KeyLocations();
    Map<String, Location> reference = new HashMap<>();
    Random random = new Random(42);
    for (int i = 0; i < 300_000; i++) {
      String key = key(random.nextInt(20_000));
      int operation = random.nextInt(10);
      if (operation < 6) {
        long fileId = random.nextLong();
        long position = random.nextInt(1 << 30) + (random.nextBoolean() ? 0 : 1L << 40);
        map.put(key, fileId, position);
        reference.put(key, new Location(fileId, position));
      } else if (operation < 9) {
        map.remove(key);
        reference.remove(key);
      } else {
        assertThat(locationOf(map, key)).isEqualTo(reference.get(key));
      }
    }
    assertSame(map, reference, 20_000);
    assertSame(roundTrip(map), reference, 20_000);
  }

  @Test
  void keysOfEqualHashCodeAndKeysBeyondAsciiStayApart() {
    // "Aa" and "BB" have the same String.hashCode, and so do all their concatenations.
    List<String> colliding = List.of("AaAa", "AaBB", "BBAa", "BBBB");
    List<String> wide = List.of("ключ", "キー", "k€y", "k\u00e9y", "key");
    KeyLocations map = new KeyLocations();
    for (int i = 0; i < colliding.size(); i++) {
      map.put(colliding.get(i), i, i);
    }
    for (int i = 0; i < wide.size(); i++) {
      map.put(wide.get(i), 100 + i, i);
    }
    map.remove("AaBB");
    map.remove("k€y");

    assertThat(locationOf(map, "AaAa")).isEqualTo(new Location(0, 0));
    assertThat(locationOf(map, "AaBB")).isNull();
    assertThat(locationOf(map, "BBAa")).isEqualTo(new Location(2, 2));
    assertThat(locationOf(map, "BBBB")).isEqualTo(new Location(3, 3));
    assertThat(locationOf(map, "ключ")).isEqualTo(new Location(100, 0));
    assertThat(locationOf(map, "キー")).isEqualTo(new Location(101, 1));
    assertThat(locationOf(map, "k€y")).isNull();
    assertThat(locationOf(map, "k\u00e9y")).isEqualTo(new Location(103, 3));
    assertThat(locationOf(map, "key")).isEqualTo(new Location(104, 4));
    // A key whose UTF-8 bytes, read as Latin-1, would spell another key.
    assertThat(locationOf(map, "k\u00c3\u00a9y")).isNull();
    assertThat(map.size()).isEqualTo(7);
  }

  @Test
  void readingAddsToTheEntriesAlreadyThereAndReplacesEqualKeys() throws IOException {
    KeyLocations written = new KeyLocations();
    written.put("a", 1, 1);
    written.put("b", 2, 2);
    KeyLocations target = new KeyLocations();
    target.put("b", 9, 9);
    target.put("c", 3, 3);

    target.readFrom(input(written));

    assertThat(target.size()).isEqualTo(3);
    assertThat(locationOf(target, "a")).isEqualTo(new Location(1, 1));
    assertThat(locationOf(target, "b")).isEqualTo(new Location(2, 2));
    assertThat(locationOf(target, "c")).isEqualTo(new Location(3, 3));
  }

  @Test
  void clearForgetsEveryKey() {
    KeyLocations map = new KeyLocations();
    for (int i = 0; i < 1_000; i++) {
      map.put(key(i), i, i);
    }
    map.clear();
    assertThat(map.size()).isZero();
    assertThat(locationOf(map, key(7))).isNull();
    map.put(key(7), 70, 7);
    assertThat(locationOf(map, key(7))).isEqualTo(new Location(70, 7));
  }

  private static String key(int i) {
    // Mostly decimal keys, as an integer key column gives; some beyond ASCII.
    return i % 10 == 0 ? "é-" + i : Integer.toString(i);
  }

  private static Location locationOf(KeyLocations map, String key) {
    int slot = map.find(key);
    return slot < 0 ? null : new Location(map.fileId(slot), map.position(slot));
  }

  private static void assertSame(KeyLocations map, Map<String, Location> reference, int keys) {
    assertThat(map.size()).isEqualTo(reference.size());
    for (int i = 0; i < keys; i++) {
      assertThat(locationOf(map, key(i))).as(key(i)).isEqualTo(reference.get(key(i)));
    }
    Map<String, Location> listed = new HashMap<>();
    map.forEach((key, fileId, position) -> listed.put(key, new Location(fileId, position)));
    assertThat(listed).isEqualTo(reference);
  }

  private static KeyLocations roundTrip(KeyLocations map) throws IOException {
    KeyLocations read = new KeyLocations();
    read.readFrom(input(map));
    return read;
  }

  private static DataInputStream input(KeyLocations map) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      map.writeTo(out);
    }
    return new DataInputStream(new ByteArrayInputStream(bytes.toByteArray()));
  }
}
