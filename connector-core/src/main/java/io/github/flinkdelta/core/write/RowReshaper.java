/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.write;

import java.io.Serializable;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RowType;

/**
 * Turns a row the sink receives into a row of the table's shape: the table's fields in the table's
 * order at every level, matched by name; a field the row lacks is null; a value of a narrower type
 * is widened to the table's (an {@code INT} into a {@code BIGINT} column, a {@code DATE} into a
 * {@code TIMESTAMP_NTZ} one). Writers then lay the reshaped row out with the table's types.
 *
 * <p>Only rows that need it are reshaped (see {@link #needed}): a row whose top-level columns
 * differ from the table's only in order, or in columns it lacks, is read in place.
 */
@Internal
public final class RowReshaper implements Serializable {

  private static final long serialVersionUID = 1L;

  private final int[] sources;
  private final LogicalType[] sourceTypes;
  private final Conversion[] conversions;
  private transient RowData.FieldGetter[] getters;

  private RowReshaper(int[] sources, LogicalType[] sourceTypes, Conversion[] conversions) {
    this.sources = sources;
    this.sourceTypes = sourceTypes;
    this.conversions = conversions;
  }

  /**
   * A reshaper of rows of {@code rows} into rows of {@code table}.
   *
   * @param table the table's row type; every field the rows carry must fit it (see {@code
   *     SchemaMerge})
   */
  public static RowReshaper of(RowType table, RowType rows) {
    int arity = table.getFieldCount();
    int[] sources = new int[arity];
    LogicalType[] sourceTypes = new LogicalType[arity];
    Conversion[] conversions = new Conversion[arity];
    for (int i = 0; i < arity; i++) {
      sources[i] = position(rows, table.getFieldNames().get(i));
      if (sources[i] >= 0) {
        sourceTypes[i] = rows.getTypeAt(sources[i]);
        conversions[i] = conversion(table.getTypeAt(i), sourceTypes[i]);
      }
    }
    return new RowReshaper(sources, sourceTypes, conversions);
  }

  /**
   * Whether rows of {@code rows} must be reshaped for {@code table}: some column they carry has
   * another type, or another shape below the top level, than the table's.
   */
  public static boolean needed(RowType table, RowType rows) {
    for (int i = 0; i < table.getFieldCount(); i++) {
      int source = position(rows, table.getFieldNames().get(i));
      if (source >= 0 && conversion(table.getTypeAt(i), rows.getTypeAt(source)) != null) {
        return true;
      }
    }
    return false;
  }

  /** {@code row} in the table's shape; the result shares strings, binaries and rows it keeps. */
  public RowData reshape(RowData row) {
    RowData.FieldGetter[] getters = this.getters;
    if (getters == null) {
      getters = new RowData.FieldGetter[sources.length];
      for (int i = 0; i < sources.length; i++) {
        if (sources[i] >= 0) {
          getters[i] = RowData.createFieldGetter(sourceTypes[i].copy(true), sources[i]);
        }
      }
      this.getters = getters;
    }
    GenericRowData reshaped = new GenericRowData(row.getRowKind(), sources.length);
    for (int i = 0; i < sources.length; i++) {
      if (getters[i] != null) {
        Object value = getters[i].getFieldOrNull(row);
        reshaped.setField(
            i, value == null || conversions[i] == null ? value : conversions[i].apply(value));
      }
    }
    return reshaped;
  }

  private boolean isIdentity(int sourceArity) {
    if (sources.length != sourceArity) {
      return false;
    }
    for (int i = 0; i < sources.length; i++) {
      if (sources[i] != i || conversions[i] != null) {
        return false;
      }
    }
    return true;
  }

  private static int position(RowType rows, String name) {
    List<String> names = rows.getFieldNames();
    for (int i = 0; i < names.size(); i++) {
      if (names.get(i).equalsIgnoreCase(name)) {
        return i;
      }
    }
    return -1;
  }

  /** How a value of {@code source} becomes one of {@code target}; null when it is one already. */
  private static Conversion conversion(LogicalType target, LogicalType source) {
    if (target instanceof RowType table && source instanceof RowType rows) {
      RowReshaper nested = of(table, rows);
      return nested.isIdentity(rows.getFieldCount()) ? null : new NestedRow(nested);
    }
    if (target instanceof ArrayType table && source instanceof ArrayType rows) {
      Conversion element = conversion(table.getElementType(), rows.getElementType());
      return element == null ? null : new Elements(rows.getElementType(), element);
    }
    if (target instanceof MapType table && source instanceof MapType rows) {
      Conversion key = conversion(table.getKeyType(), rows.getKeyType());
      Conversion value = conversion(table.getValueType(), rows.getValueType());
      return key == null && value == null
          ? null
          : new Entries(rows.getKeyType(), key, rows.getValueType(), value);
    }
    if (sameValues(target, source)) {
      return null;
    }
    return new Widening(target);
  }

  /** Whether values of {@code source} are already values of {@code target} in Flink's form. */
  private static boolean sameValues(LogicalType target, LogicalType source) {
    LogicalTypeRoot root = target.getTypeRoot();
    if (root != source.getTypeRoot()) {
      boolean strings =
          (root == LogicalTypeRoot.CHAR || root == LogicalTypeRoot.VARCHAR)
              && (source.getTypeRoot() == LogicalTypeRoot.CHAR
                  || source.getTypeRoot() == LogicalTypeRoot.VARCHAR);
      boolean binaries =
          (root == LogicalTypeRoot.BINARY || root == LogicalTypeRoot.VARBINARY)
              && (source.getTypeRoot() == LogicalTypeRoot.BINARY
                  || source.getTypeRoot() == LogicalTypeRoot.VARBINARY);
      return strings || binaries;
    }
    if (target instanceof DecimalType decimal) {
      DecimalType from = (DecimalType) source;
      return decimal.getPrecision() == from.getPrecision() && decimal.getScale() == from.getScale();
    }
    // Timestamps of any precision are TimestampData; the writer reads them at the table's.
    return true;
  }

  /** Turns one non-null value into the table's type. */
  private interface Conversion extends Serializable {
    Object apply(Object value);
  }

  /** A nested row, reshaped. */
  private record NestedRow(RowReshaper reshaper) implements Conversion {
    @Override
    public Object apply(Object value) {
      return reshaper.reshape((RowData) value);
    }
  }

  /** An array whose elements are converted. */
  private record Elements(LogicalType elementType, Conversion element) implements Conversion {
    @Override
    public Object apply(Object value) {
      ArrayData array = (ArrayData) value;
      ArrayData.ElementGetter getter = ArrayData.createElementGetter(elementType.copy(true));
      Object[] elements = new Object[array.size()];
      for (int i = 0; i < elements.length; i++) {
        Object e = getter.getElementOrNull(array, i);
        elements[i] = e == null ? null : element.apply(e);
      }
      return new GenericArrayData(elements);
    }
  }

  /** A map whose keys or values are converted. */
  private record Entries(
      LogicalType keyType, Conversion key, LogicalType valueType, Conversion value)
      implements Conversion {
    @Override
    public Object apply(Object map) {
      MapData entries = (MapData) map;
      ArrayData keys = entries.keyArray();
      ArrayData values = entries.valueArray();
      ArrayData.ElementGetter keyGetter = ArrayData.createElementGetter(keyType.copy(true));
      ArrayData.ElementGetter valueGetter = ArrayData.createElementGetter(valueType.copy(true));
      Map<Object, Object> converted = new LinkedHashMap<>();
      for (int i = 0; i < entries.size(); i++) {
        Object k = keyGetter.getElementOrNull(keys, i);
        Object v = valueGetter.getElementOrNull(values, i);
        converted.put(
            k == null || key == null ? k : key.apply(k),
            v == null || value == null ? v : value.apply(v));
      }
      return new GenericMapData(converted);
    }
  }

  /** A value widened to the table's type, as Delta's type widening reads older files. */
  private record Widening(LogicalType target) implements Conversion {
    @Override
    public Object apply(Object value) {
      switch (target.getTypeRoot()) {
        case SMALLINT:
          return ((Number) value).shortValue();
        case INTEGER:
          return ((Number) value).intValue();
        case BIGINT:
          return ((Number) value).longValue();
        case DOUBLE:
          return ((Number) value).doubleValue();
        case DECIMAL:
          DecimalType decimal = (DecimalType) target;
          BigDecimal exact =
              value instanceof DecimalData d
                  ? d.toBigDecimal()
                  : BigDecimal.valueOf(((Number) value).longValue());
          return DecimalData.fromBigDecimal(
              exact.setScale(decimal.getScale()), decimal.getPrecision(), decimal.getScale());
        case TIMESTAMP_WITHOUT_TIME_ZONE:
          return TimestampData.fromLocalDateTime(
              LocalDate.ofEpochDay((Integer) value).atStartOfDay());
        default:
          throw new IllegalStateException("no widening of a value to " + target);
      }
    }
  }
}
