/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.schema;

import io.delta.kernel.types.ArrayType;
import io.delta.kernel.types.DataType;
import io.delta.kernel.types.FieldMetadata;
import io.delta.kernel.types.MapType;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.flink.annotation.Internal;

/** Changes to a table's schema, checked against what Delta allows before anything is committed. */
@Internal
public final class SchemaChanges {

  private SchemaChanges() {}

  /**
   * {@code schema} with {@code columns} added at the end.
   *
   * @param tableName the table, as messages name it
   * @throws IllegalArgumentException when a column is NOT NULL (existing rows have no value for it)
   *     or the table has a column of that name already
   */
  public static StructType withAddedColumns(
      String tableName, StructType schema, List<StructField> columns) {
    for (StructField column : columns) {
      if (!column.isNullable()) {
        throw new IllegalArgumentException(
            "Cannot add column '"
                + column.getName()
                + "' to "
                + tableName
                + ": an added column must be nullable, since existing rows have no value for it.");
      }
      if (schema.fieldNames().stream().anyMatch(n -> n.equalsIgnoreCase(column.getName()))) {
        throw new IllegalArgumentException(
            "Table " + tableName + " already has a column '" + column.getName() + "'.");
      }
      schema = schema.add(column);
    }
    return schema;
  }

  /**
   * {@code schema} with nullable {@code column} added right before column {@code before}, or at the
   * end when it is null. Delta finds a column's values by its name (or its physical name), never by
   * its place, so a column may be added anywhere.
   *
   * @param tableName the table, as messages name it
   * @throws IllegalArgumentException when {@code column} is NOT NULL, the table has a column of its
   *     name already, or none named {@code before}
   */
  public static StructType withColumnBefore(
      String tableName, StructType schema, StructField column, String before) {
    StructType appended = withAddedColumns(tableName, schema, List.of(column));
    if (before == null) {
      return appended;
    }
    List<StructField> fields = new ArrayList<>(schema.fields());
    for (int i = 0; i < fields.size(); i++) {
      if (fields.get(i).getName().equalsIgnoreCase(before)) {
        fields.add(i, column);
        return new StructType(fields);
      }
    }
    throw new IllegalArgumentException(
        "Cannot add column '"
            + column.getName()
            + "' to "
            + tableName
            + " before column '"
            + before
            + "': the table has no such column.");
  }

  /**
   * {@code schema} with the column mapping metadata (physical names, field ids) of the columns of
   * {@code mapped} that it shares by name, at every level; its other metadata is kept.
   */
  public static StructType withColumnMappingOf(StructType schema, StructType mapped) {
    List<StructField> fields = new ArrayList<>();
    for (StructField field : schema.fields()) {
      StructField source = SchemaMerge.find(mapped, field.getName());
      if (source == null) {
        fields.add(field);
        continue;
      }
      FieldMetadata.Builder metadata = FieldMetadata.builder().fromMetadata(field.getMetadata());
      FieldMetadata mappedMetadata = source.getMetadata();
      if (mappedMetadata.contains(FileLayouts.PHYSICAL_NAME_KEY)) {
        metadata.putString(
            FileLayouts.PHYSICAL_NAME_KEY, mappedMetadata.getString(FileLayouts.PHYSICAL_NAME_KEY));
      }
      if (mappedMetadata.contains(FileLayouts.FIELD_ID_KEY)) {
        metadata.putLong(
            FileLayouts.FIELD_ID_KEY, mappedMetadata.getLong(FileLayouts.FIELD_ID_KEY));
      }
      fields.add(
          new StructField(
                  field.getName(),
                  withColumnMappingOf(field.getDataType(), source.getDataType()),
                  field.isNullable(),
                  metadata.build())
              .withTypeChanges(field.getTypeChanges()));
    }
    return new StructType(fields);
  }

  private static DataType withColumnMappingOf(DataType type, DataType mapped) {
    if (type instanceof StructType struct && mapped instanceof StructType source) {
      return withColumnMappingOf(struct, source);
    }
    if (type instanceof ArrayType array && mapped instanceof ArrayType source) {
      return new ArrayType(
          withColumnMappingOf(array.getElementType(), source.getElementType()),
          array.containsNull());
    }
    if (type instanceof MapType map && mapped instanceof MapType source) {
      return new MapType(
          withColumnMappingOf(map.getKeyType(), source.getKeyType()),
          withColumnMappingOf(map.getValueType(), source.getValueType()),
          map.isValueContainsNull());
    }
    return type;
  }

  /**
   * {@code schema} with a physical name and a field id of its own for every column, at every level,
   * that has neither yet: {@code col-<random UUID>}, as Delta names columns it adds, and the next
   * ids after {@code maxColumnId} and every id in {@code schema}.
   *
   * <p>Kernel would name a column added to an existing table after its logical name. That name may
   * be the physical name of a column dropped or renamed before, whose values old files still hold:
   * the new column would read them, or share its physical name with the renamed one.
   *
   * @param maxColumnId the table's {@code delta.columnMapping.maxColumnId}, or 0
   */
  public static StructType withNewColumnsMapped(StructType schema, long maxColumnId) {
    long[] lastId = {Math.max(maxColumnId, maxId(schema))};
    return mapNew(schema, lastId);
  }

  private static StructType mapNew(StructType struct, long[] lastId) {
    List<StructField> fields = new ArrayList<>();
    for (StructField field : struct.fields()) {
      FieldMetadata metadata = field.getMetadata();
      if (!metadata.contains(FileLayouts.PHYSICAL_NAME_KEY)
          && !metadata.contains(FileLayouts.FIELD_ID_KEY)) {
        metadata =
            FieldMetadata.builder()
                .fromMetadata(metadata)
                .putString(FileLayouts.PHYSICAL_NAME_KEY, "col-" + UUID.randomUUID())
                .putLong(FileLayouts.FIELD_ID_KEY, ++lastId[0])
                .build();
      }
      fields.add(
          new StructField(
                  field.getName(),
                  mapNew(field.getDataType(), lastId),
                  field.isNullable(),
                  metadata)
              .withTypeChanges(field.getTypeChanges()));
    }
    return new StructType(fields);
  }

  private static DataType mapNew(DataType type, long[] lastId) {
    if (type instanceof StructType struct) {
      return mapNew(struct, lastId);
    }
    if (type instanceof ArrayType array) {
      return new ArrayType(mapNew(array.getElementType(), lastId), array.containsNull());
    }
    if (type instanceof MapType map) {
      return new MapType(
          mapNew(map.getKeyType(), lastId),
          mapNew(map.getValueType(), lastId),
          map.isValueContainsNull());
    }
    return type;
  }

  private static long maxId(DataType type) {
    long max = 0;
    if (type instanceof StructType struct) {
      for (StructField field : struct.fields()) {
        if (field.getMetadata().contains(FileLayouts.FIELD_ID_KEY)) {
          max = Math.max(max, field.getMetadata().getLong(FileLayouts.FIELD_ID_KEY));
        }
        max = Math.max(max, maxId(field.getDataType()));
      }
    } else if (type instanceof ArrayType array) {
      max = maxId(array.getElementType());
    } else if (type instanceof MapType map) {
      max = Math.max(maxId(map.getKeyType()), maxId(map.getValueType()));
    }
    return max;
  }

  /**
   * Whether a column that {@code before} and {@code after} share has another type in {@code after}.
   */
  public static boolean changesTypes(StructType before, StructType after) {
    for (StructField field : after.fields()) {
      StructField old = SchemaMerge.find(before, field.getName());
      if (old != null && changesTypes(old.getDataType(), field.getDataType())) {
        return true;
      }
    }
    return false;
  }

  private static boolean changesTypes(DataType before, DataType after) {
    if (before instanceof StructType old && after instanceof StructType now) {
      return changesTypes(old, now);
    }
    if (before instanceof ArrayType old && after instanceof ArrayType now) {
      return changesTypes(old.getElementType(), now.getElementType());
    }
    if (before instanceof MapType old && after instanceof MapType now) {
      return changesTypes(old.getKeyType(), now.getKeyType())
          || changesTypes(old.getValueType(), now.getValueType());
    }
    return !before.equivalent(after);
  }
}
