/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.log;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.delta.kernel.engine.Engine;
import io.github.flinkdelta.core.kernel.KernelLog;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * The actions a commit file holds before its first file action: its transactions, and whether it
 * changes metadata or protocol. Kernel writes a commit's commit info, metadata, protocol and
 * transactions before its adds and removes, so the first bytes of a commit of this sink tell it
 * apart without parsing the file actions that follow.
 *
 * @param transactions app id to transaction version
 */
record CommitHeader(Map<String, Long> transactions, boolean metadataChanged) {

  /** How much of a commit file is read for its header. */
  static final int MAX_BYTES = 16 * 1024;

  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * The header of {@code file}; null when it does not end within its first {@link #MAX_BYTES} bytes
   * (then the commit is read whole).
   */
  static CommitHeader read(Engine engine, KernelLog.CommitFile file) {
    if (file.size() <= 0) {
      // A size the listing did not give.
      return null;
    }
    int length = (int) Math.min(file.size(), MAX_BYTES);
    String head;
    try {
      head = new String(file.head(engine, length), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read the commit " + file.path(), e);
    }
    return parse(head, length == file.size());
  }

  /**
   * The header the first lines of a commit file give.
   *
   * @param whole whether {@code head} is the whole file
   */
  static CommitHeader parse(String head, boolean whole) {
    Map<String, Long> transactions = new HashMap<>();
    boolean metadata = false;
    int start = 0;
    while (start < head.length()) {
      int end = head.indexOf('\n', start);
      if (end < 0 && !whole) {
        // The line goes on past the bytes read.
        return null;
      }
      String line = head.substring(start, end < 0 ? head.length() : end).strip();
      start = end < 0 ? head.length() : end + 1;
      if (line.isEmpty()) {
        continue;
      }
      JsonNode action = parseLine(line);
      if (action.has(KernelLog.ADD) || action.has(KernelLog.REMOVE)) {
        return new CommitHeader(transactions, metadata);
      }
      JsonNode txn = action.get(KernelLog.TXN);
      if (txn != null) {
        transactions.merge(txn.path("appId").asText(), txn.path("version").asLong(-1), Math::max);
      }
      metadata |= action.has(KernelLog.METADATA) || action.has(KernelLog.PROTOCOL);
    }
    return whole ? new CommitHeader(transactions, metadata) : null;
  }

  /** Whether the commit records a transaction of one of {@code appIds}. */
  boolean isOfAny(Iterable<String> appIds) {
    for (String appId : appIds) {
      if (transactions.containsKey(appId)) {
        return true;
      }
    }
    return false;
  }

  private static JsonNode parseLine(String line) {
    try {
      return JSON.readTree(line);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot parse a commit action: " + line, e);
    }
  }
}
