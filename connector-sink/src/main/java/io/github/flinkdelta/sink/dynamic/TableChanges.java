/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.dynamic;

import io.github.flinkdelta.common.StateStrings;
import java.io.IOException;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputView;

/** {@link TableChange}s in a router's state: a kind byte, then the change's names. */
final class TableChanges {

  private static final String OWNER = "dynamic sink";

  private TableChanges() {}

  static void write(TableChange change, DataOutputView out) throws IOException {
    if (change instanceof TableChange.RenameColumn rename) {
      out.writeByte(0);
      StateStrings.write(rename.table(), out);
      StateStrings.write(rename.from(), out);
      StateStrings.write(rename.to(), out);
    } else if (change instanceof TableChange.DropColumn drop) {
      out.writeByte(1);
      StateStrings.write(drop.table(), out);
      StateStrings.write(drop.column(), out);
    } else if (change instanceof TableChange.TruncateTable truncate) {
      out.writeByte(2);
      StateStrings.write(truncate.table(), out);
    } else {
      out.writeByte(3);
      StateStrings.write(((TableChange.DropTable) change).table(), out);
    }
  }

  static TableChange read(DataInputDeserializer in) throws IOException {
    byte kind = in.readByte();
    String table = StateStrings.read(in, OWNER);
    return switch (kind) {
      case 0 ->
          TableChange.renameColumn(
              table, StateStrings.read(in, OWNER), StateStrings.read(in, OWNER));
      case 1 -> TableChange.dropColumn(table, StateStrings.read(in, OWNER));
      case 2 -> TableChange.truncateTable(table);
      case 3 -> TableChange.dropTable(table);
      default -> throw new IOException("Corrupt dynamic sink state: table change kind " + kind);
    };
  }
}
