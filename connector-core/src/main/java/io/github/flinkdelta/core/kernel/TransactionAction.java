/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.kernel;

import io.delta.kernel.data.Row;
import io.delta.kernel.internal.actions.SetTransaction;
import io.delta.kernel.internal.actions.SingleAction;
import java.util.Optional;
import org.apache.flink.annotation.Internal;

/**
 * A transaction ({@code txn}) action row for a commit, as Kernel's transaction builder writes one
 * for {@code withTransactionId}. Kernel's public API makes one only through the builder; its
 * internal {@code SetTransaction} and {@code SingleAction} name the fields as the protocol does
 * ({@code SnapshotReuseTest} reads the app's version back through Kernel).
 */
@Internal
public final class TransactionAction {

  private TransactionAction() {}

  /** The action row recording transaction {@code version} of {@code appId}. */
  public static Row of(String appId, long version, long lastUpdated) {
    return SingleAction.createTxnSingleAction(
        new SetTransaction(appId, version, Optional.of(lastUpdated)).toRow());
  }
}
