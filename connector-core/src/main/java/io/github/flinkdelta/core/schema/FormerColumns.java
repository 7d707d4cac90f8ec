/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.schema;

import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.types.logical.RowType;

/**
 * The names top-level columns had before the sink renamed or dropped them, kept in the table
 * property {@value #PROPERTY} as {@code name=physicalName} pairs. With column mapping a renamed
 * column keeps its physical name, so a row that still carries the old name (a change source's row
 * sent again after a failure, from before the rename) is matched to the column by it; a row that
 * carries a dropped column is written without it. Neither is mistaken for a new column.
 */
@Internal
public final class FormerColumns {

  /** The table property that holds the former names. */
  public static final String PROPERTY = "flink.former-columns";

  private final Map<String, String> physicalByName;

  private FormerColumns(Map<String, String> physicalByName) {
    this.physicalByName = physicalByName;
  }

  /** The former names {@code properties} record. */
  public static FormerColumns of(Map<String, String> properties) {
    Map<String, String> pairs = new LinkedHashMap<>();
    String value = properties.get(PROPERTY);
    if (value != null && !value.isEmpty()) {
      for (String pair : value.split(",")) {
        int eq = pair.indexOf('=');
        pairs.put(decode(pair.substring(0, eq)), decode(pair.substring(eq + 1)));
      }
    }
    return new FormerColumns(pairs);
  }

  /** The property value with {@code name} recorded as a former name of {@code physicalName}. */
  public String with(String name, String physicalName) {
    Map<String, String> pairs = new LinkedHashMap<>(physicalByName);
    pairs.remove(name.toLowerCase(Locale.ROOT));
    pairs.put(name.toLowerCase(Locale.ROOT), physicalName);
    List<String> encoded = new ArrayList<>();
    pairs.forEach((n, p) -> encoded.add(encode(n) + "=" + encode(p)));
    return String.join(",", encoded);
  }

  /**
   * How rows of {@code rows} fit {@code schema} once the former names are taken into account: each
   * field the schema lacks by name but knows by a former name is renamed to the column's name now,
   * or left out when its column was dropped. A field whose new name the rows carry too is left as
   * it is (a new column that took a former name).
   */
  public Renaming renaming(RowType rows, StructType schema) {
    List<RowType.RowField> fields = new ArrayList<>();
    List<Integer> kept = new ArrayList<>();
    boolean changed = false;
    for (int i = 0; i < rows.getFieldCount(); i++) {
      RowType.RowField field = rows.getFields().get(i);
      String physical = physicalByName.get(field.getName().toLowerCase(Locale.ROOT));
      if (physical == null || SchemaMerge.find(schema, field.getName()) != null) {
        fields.add(field);
        kept.add(i);
        continue;
      }
      StructField column = byPhysicalName(schema, physical);
      if (column == null) {
        changed = true;
      } else if (rows.getFieldNames().stream()
          .anyMatch(n -> n.equalsIgnoreCase(column.getName()))) {
        fields.add(field);
        kept.add(i);
      } else {
        fields.add(
            new RowType.RowField(
                column.getName(), field.getType(), field.getDescription().orElse(null)));
        kept.add(i);
        changed = true;
      }
    }
    if (!changed) {
      return new Renaming(rows, null);
    }
    int[] positions =
        kept.size() == rows.getFieldCount() ? null : kept.stream().mapToInt(i -> i).toArray();
    return new Renaming(new RowType(rows.isNullable(), fields), positions);
  }

  /**
   * Rows' fields under the table's names.
   *
   * @param rowType the rows' type under the names the table has now
   * @param keptPositions the positions of the rows' fields that remain, in order; null for all
   */
  public record Renaming(RowType rowType, int[] keptPositions) {}

  private static StructField byPhysicalName(StructType schema, String physical) {
    for (StructField field : schema.fields()) {
      if (physical.equals(FileLayouts.physicalName(field))) {
        return field;
      }
    }
    return null;
  }

  private static String encode(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8);
  }

  private static String decode(String text) {
    return URLDecoder.decode(text, StandardCharsets.UTF_8);
  }
}
