/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.flinkdelta.testkit.CatalogState.Commit;
import io.github.flinkdelta.testkit.CatalogState.Table;
import io.unitycatalog.client.delta.model.DeltaAddCommitUpdate;
import io.unitycatalog.client.delta.model.DeltaAssertEtag;
import io.unitycatalog.client.delta.model.DeltaAssertTableUUID;
import io.unitycatalog.client.delta.model.DeltaRemovePropertiesUpdate;
import io.unitycatalog.client.delta.model.DeltaSetLatestBackfilledVersionUpdate;
import io.unitycatalog.client.delta.model.DeltaSetPartitionColumnsUpdate;
import io.unitycatalog.client.delta.model.DeltaSetPropertiesUpdate;
import io.unitycatalog.client.delta.model.DeltaSetProtocolUpdate;
import io.unitycatalog.client.delta.model.DeltaSetSchemaUpdate;
import io.unitycatalog.client.delta.model.DeltaSetTableCommentUpdate;
import io.unitycatalog.client.delta.model.DeltaTableRequirement;
import io.unitycatalog.client.delta.model.DeltaTableUpdate;
import io.unitycatalog.client.delta.model.DeltaUpdateTableRequest;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What one {@code POST .../tables/{table}} of the Delta API asks of a table, checked as the server
 * checks it before anything applies: its requirements (the table's uuid, required; an etag,
 * optional), at most one commit, a backfilled version, and the metadata as the updates leave it.
 *
 * @param etag the etag the request requires, or null
 * @param commit the commit to add, or null
 * @param backfilled the latest backfilled version to set, or null
 * @param properties the table's properties after the updates
 * @param setColumns the columns a {@code set-columns} gives, or null
 * @param setPartitions the partition columns a {@code set-partition-columns} gives, or null
 * @param comment the table's comment after the updates
 * @param protocol the table's protocol after the updates
 * @param metadataChanged whether any update changes the table's metadata
 */
record TableUpdateRequest(
    String etag,
    Commit commit,
    Long backfilled,
    Map<String, String> properties,
    JsonNode setColumns,
    List<String> setPartitions,
    String comment,
    JsonNode protocol,
    boolean metadataChanged) {

  /**
   * Reads the request's requirements and updates against {@code table}.
   *
   * @throws UnityCatalogException 400 for a malformed request, 409 for another table's uuid
   */
  static TableUpdateRequest of(Table table, ApiRequest request, ObjectMapper mapper) {
    DeltaUpdateTableRequest update = request.body(DeltaUpdateTableRequest.class);
    List<DeltaTableUpdate> updates = update.getUpdates() == null ? List.of() : update.getUpdates();
    if (updates.isEmpty()) {
      throw UnityCatalogException.badRequest("At least one update is required.");
    }
    String etag = checkRequirements(table, update.getRequirements());
    Commit commit = null;
    Long backfilled = null;
    Map<String, String> properties = new HashMap<>(table.properties());
    JsonNode setColumns = null;
    List<String> setPartitions = null;
    String comment = table.comment();
    JsonNode protocol = table.protocol();
    boolean metadataChanged = false;
    for (DeltaTableUpdate change : updates) {
      if (change instanceof DeltaAddCommitUpdate add) {
        if (commit != null) {
          throw UnityCatalogException.badRequest("At most one add-commit is allowed per request.");
        }
        commit = commitOf(add);
        continue;
      }
      if (change instanceof DeltaSetLatestBackfilledVersionUpdate set) {
        backfilled = set.getLatestPublishedVersion();
        continue;
      }
      boolean metadataUpdate = true;
      if (change instanceof DeltaSetPropertiesUpdate set) {
        properties.putAll(set.getUpdates());
      } else if (change instanceof DeltaRemovePropertiesUpdate remove) {
        remove.getRemovals().forEach(properties::remove);
      } else if (change instanceof DeltaSetSchemaUpdate set) {
        setColumns = mapper.valueToTree(set.getColumns());
        if (setColumns.path("fields").isEmpty()) {
          throw UnityCatalogException.badRequest("set-columns requires at least one column.");
        }
      } else if (change instanceof DeltaSetPartitionColumnsUpdate set) {
        setPartitions = List.copyOf(set.getPartitionColumns());
      } else if (change instanceof DeltaSetTableCommentUpdate set) {
        comment = set.getComment();
      } else if (change instanceof DeltaSetProtocolUpdate set) {
        protocol = mapper.valueToTree(set.getProtocol());
        DeltaTableProperties.replaceProtocol(properties, set.getProtocol());
      } else {
        metadataUpdate = false;
      }
      metadataChanged |= metadataUpdate;
    }
    return new TableUpdateRequest(
        etag,
        commit,
        backfilled,
        properties,
        setColumns,
        setPartitions,
        comment,
        protocol,
        metadataChanged);
  }

  /** Checks the uuid the request requires and returns the etag it requires, if any. */
  private static String checkRequirements(Table table, List<DeltaTableRequirement> requirements) {
    String uuid = null;
    String etag = null;
    for (DeltaTableRequirement requirement :
        requirements == null ? List.<DeltaTableRequirement>of() : requirements) {
      if (requirement instanceof DeltaAssertTableUUID assertUuid) {
        uuid = String.valueOf(assertUuid.getUuid());
      } else if (requirement instanceof DeltaAssertEtag assertEtag) {
        etag = assertEtag.getEtag();
      }
    }
    if (uuid == null) {
      throw UnityCatalogException.badRequest("assert-table-uuid requirement is required.");
    }
    if (!uuid.equals(table.id())) {
      throw UnityCatalogException.requirementConflict(
          "Table " + table.fullName() + " has uuid " + table.id() + ", not " + uuid);
    }
    return etag;
  }

  private static Commit commitOf(DeltaAddCommitUpdate add) {
    var c = add.getCommit();
    if (c == null) {
      throw UnityCatalogException.badRequest("add-commit needs a commit");
    }
    return new Commit(
        orZero(c.getVersion()),
        orZero(c.getTimestamp()),
        c.getFileName(),
        orZero(c.getFileSize()),
        orZero(c.getFileModificationTimestamp()));
  }

  private static long orZero(Number value) {
    return value == null ? 0 : value.longValue();
  }
}
