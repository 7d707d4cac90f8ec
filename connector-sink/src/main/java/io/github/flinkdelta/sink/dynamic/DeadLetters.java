/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.dynamic;

import io.github.flinkdelta.uc.UnityCatalogAccessDeniedException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.apache.flink.metrics.Counter;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a writer subtask puts the records their tables refuse, when {@link
 * DynamicSinkOptions#REFUSED_RECORDS} says {@link RefusedRecordPolicy#DEAD_LETTER}: one row each in
 * the dead-letter table, an appending table committed with the checkpoint like the others. A
 * refused shape is remembered (at most as many as the writer keeps tables), so that its next
 * records go to the dead-letter table without asking the table again; a restart asks again.
 *
 * <p>Only refusals are dead-lettered: a table name that is none, a schema or a table feature the
 * table cannot take, a catalog that denies the principal the table. A failure that a retry can mend
 * (storage, network, a catalog that does not answer) still fails the job.
 */
final class DeadLetters {

  private static final Logger LOG = LoggerFactory.getLogger(DeadLetters.class);

  /** The dead-letter table's columns. */
  static final RowType TYPE =
      RowType.of(
          new LogicalType[] {
            new VarCharType(false, VarCharType.MAX_LENGTH),
            new VarCharType(false, VarCharType.MAX_LENGTH),
            new VarCharType(false, VarCharType.MAX_LENGTH),
            new VarCharType(true, VarCharType.MAX_LENGTH),
            new LocalZonedTimestampType(false, 3)
          },
          new String[] {"table_name", "reason", "row_kind", "row_json", "refused_at"});

  private final DynamicTable table;
  private final int maxRemembered;
  private final Counter deadLettered;
  private final RowJson json = new RowJson();
  private final Map<DynamicTable, String> refused = new LinkedHashMap<>(16, 0.75f, true);

  DeadLetters(String tableName, int maxRemembered, Counter deadLettered) {
    this.table = DynamicTable.of(tableName, TYPE);
    this.maxRemembered = maxRemembered;
    this.deadLettered = deadLettered;
  }

  /** The dead-letter table. */
  DynamicTable table() {
    return table;
  }

  /** Why {@code shape} was refused before, or null. */
  String refusalOf(DynamicTable shape) {
    return refused.get(shape);
  }

  /**
   * The reason {@code failure}, met while resolving {@code shape}, is a refusal of its records to
   * remember; null when it is not a refusal, or the dead-letter table itself failed: then the job
   * fails.
   */
  String refused(DynamicTable shape, RuntimeException failure) {
    if (shape.name().equals(table.name()) || !isRefusal(failure)) {
      return null;
    }
    String reason = failure.getMessage() == null ? failure.toString() : failure.getMessage();
    LOG.warn(
        "Table {} refuses records of its shape; they go to the dead-letter table {} as '{}' says:"
            + " {}",
        shape.name(),
        table.name(),
        DynamicSinkOptions.REFUSED_RECORDS.key(),
        reason);
    refused.put(shape, reason);
    if (refused.size() > maxRemembered) {
      var eldest = refused.keySet().iterator();
      eldest.next();
      eldest.remove();
    }
    return reason;
  }

  /** The dead-letter table's record of {@code record}, refused for {@code reason}. */
  DynamicRecord letterOf(DynamicRecord record, String reason) {
    deadLettered.inc();
    return new DynamicRecord(
        table,
        GenericRowData.of(
            StringData.fromString(record.table().name()),
            StringData.fromString(reason),
            StringData.fromString(record.row().getRowKind().name()),
            StringData.fromString(json.of(record.row(), record.table().rowType())),
            TimestampData.fromEpochMillis(System.currentTimeMillis())));
  }

  /**
   * Whether {@code failure} says that the table refuses records, rather than that it failed: the
   * first of its causes that is a refusal ({@link IllegalArgumentException}, a catalog's denial)
   * comes before any I/O failure (an unresolved host is an {@code IllegalArgumentException} below
   * an {@code IOException}, and a retry may mend it).
   */
  static boolean isRefusal(Throwable failure) {
    Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    for (Throwable cause = failure; cause != null && seen.add(cause); cause = cause.getCause()) {
      if (cause instanceof IOException || cause instanceof UncheckedIOException) {
        return false;
      }
      if (cause instanceof IllegalArgumentException
          || cause instanceof UnityCatalogAccessDeniedException) {
        return true;
      }
    }
    return false;
  }
}
