/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.kernel;

import io.delta.kernel.Snapshot;
import io.delta.kernel.internal.SnapshotImpl;
import io.delta.kernel.internal.actions.Protocol;
import java.util.Set;
import org.apache.flink.annotation.Internal;

/**
 * The protocol of a table version: the reader and writer features it names. Read through Kernel's
 * internal snapshot: Kernel 4.4's public accessor of the protocol is gone again on Delta's main
 * line (TableFeaturesITCase fails when this stops working). Equal when Kernel's protocols are.
 */
@Internal
public final class TableProtocol {

  private final Protocol protocol;

  private TableProtocol(Protocol protocol) {
    this.protocol = protocol;
  }

  /** The protocol of {@code snapshot}. */
  public static TableProtocol of(Snapshot snapshot) {
    return new TableProtocol(((SnapshotImpl) snapshot).getProtocol());
  }

  public Set<String> readerFeatures() {
    return protocol.getReaderFeatures();
  }

  public Set<String> writerFeatures() {
    return protocol.getWriterFeatures();
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof TableProtocol that && protocol.equals(that.protocol);
  }

  @Override
  public int hashCode() {
    return protocol.hashCode();
  }

  @Override
  public String toString() {
    return protocol.toString();
  }
}
