/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.common;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Strings in the connector's Flink state (committables, splits): length-prefixed UTF-8, without the
 * 64 KiB limit of {@code writeUTF}, since a path or a partition value may be longer.
 */
@Internal
public final class StateStrings {

  private StateStrings() {}

  /** Writes {@code value} as length-prefixed UTF-8. */
  public static void write(String value, DataOutputView out) throws IOException {
    byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
    out.writeInt(bytes.length);
    out.write(bytes);
  }

  /**
   * Reads a string {@link #write} wrote.
   *
   * @param owner whose state it is, for the error on a garbled length ("sink", "source")
   */
  public static String read(DataInputDeserializer in, String owner) throws IOException {
    int length = in.readInt();
    if (length < 0 || length > in.available()) {
      throw new IOException("Corrupt " + owner + " state: a string of " + length + " bytes");
    }
    byte[] bytes = new byte[length];
    in.readFully(bytes);
    return new String(bytes, StandardCharsets.UTF_8);
  }
}
