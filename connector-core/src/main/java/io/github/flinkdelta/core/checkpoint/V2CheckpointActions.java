/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.checkpoint;

import io.delta.kernel.data.ColumnVector;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.data.FilteredColumnarBatch;
import io.delta.kernel.types.DataType;
import io.delta.kernel.types.LongType;
import io.delta.kernel.types.MapType;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.CloseableIterator;
import java.io.IOException;
import java.util.NoSuchElementException;

/**
 * Turns the actions of a V1-spec checkpoint into a V2-spec checkpoint under the classic name, for
 * tables with the {@code v2Checkpoint} feature ({@code delta.checkpointPolicy = v2}): every batch
 * gains a {@code checkpointMetadata} column, null in all rows, and one more row at the end holds
 * the action itself (the checkpoint's version, no tags). The checkpoint has no sidecar files, which
 * the V2 spec allows.
 *
 * <p>Kernel reads V2 checkpoints but writes V1-spec ones only. The protocol lets any table have
 * those, but a table that asks for V2 checkpoints gets them here. Batches that already carry the
 * column (a Kernel that writes V2 itself) pass through unchanged.
 */
final class V2CheckpointActions {

  static final String FEATURE = "v2Checkpoint";

  private static final StructType METADATA_TYPE =
      new StructType()
          .add("version", LongType.LONG, false)
          .add("tags", new MapType(StringType.STRING, StringType.STRING, false), true);

  private static final StructField METADATA_FIELD =
      new StructField("checkpointMetadata", METADATA_TYPE, true);

  private V2CheckpointActions() {}

  /** The checkpoint's batches with the checkpoint metadata action of {@code version} added. */
  static CloseableIterator<FilteredColumnarBatch> of(
      CloseableIterator<FilteredColumnarBatch> actions, long version) {
    return new CloseableIterator<>() {
      private StructType schema;
      private boolean hasMetadata;

      @Override
      public boolean hasNext() {
        return actions.hasNext() || (schema != null && !hasMetadata);
      }

      @Override
      public FilteredColumnarBatch next() {
        if (actions.hasNext()) {
          FilteredColumnarBatch batch = actions.next();
          ColumnarBatch data = batch.getData();
          if (schema == null) {
            schema = data.getSchema();
            // Kernel wrote the action itself: nothing to add.
            hasMetadata = schema.fieldNames().contains(METADATA_FIELD.getName());
          }
          if (hasMetadata) {
            return batch;
          }
          ColumnVector nulls = new NullVector(METADATA_TYPE, data.getSize());
          return new FilteredColumnarBatch(
              new WiderBatch(data, widen(schema), nulls), batch.getSelectionVector());
        }
        if (schema == null || hasMetadata) {
          throw new NoSuchElementException();
        }
        hasMetadata = true;
        return new FilteredColumnarBatch(metadataRow(schema, version), java.util.Optional.empty());
      }

      @Override
      public void close() throws IOException {
        actions.close();
      }
    };
  }

  private static StructType widen(StructType schema) {
    return schema.add(METADATA_FIELD);
  }

  /** One row: null in every column of {@code schema}, the action in the added one. */
  private static ColumnarBatch metadataRow(StructType schema, long version) {
    ColumnarBatch nulls =
        new ColumnarBatch() {
          @Override
          public StructType getSchema() {
            return schema;
          }

          @Override
          public ColumnVector getColumnVector(int ordinal) {
            return new NullVector(schema.at(ordinal).getDataType(), 1);
          }

          @Override
          public int getSize() {
            return 1;
          }
        };
    return new WiderBatch(nulls, widen(schema), new MetadataVector(version));
  }

  /** A batch with one more column after its own. */
  private record WiderBatch(ColumnarBatch base, StructType schema, ColumnVector added)
      implements ColumnarBatch {

    @Override
    public StructType getSchema() {
      return schema;
    }

    @Override
    public ColumnVector getColumnVector(int ordinal) {
      return ordinal < base.getSchema().length() ? base.getColumnVector(ordinal) : added;
    }

    @Override
    public int getSize() {
      return base.getSize();
    }
  }

  /** A column of nulls of any type; a struct's fields are null columns too. */
  private record NullVector(DataType type, int size) implements ColumnVector {

    @Override
    public DataType getDataType() {
      return type;
    }

    @Override
    public int getSize() {
      return size;
    }

    @Override
    public boolean isNullAt(int rowId) {
      return true;
    }

    @Override
    public ColumnVector getChild(int ordinal) {
      return new NullVector(((StructType) type).at(ordinal).getDataType(), size);
    }

    @Override
    public void close() {}
  }

  /** A one-row column whose value is not null. */
  private abstract static class OneValue implements ColumnVector {
    private final DataType type;

    OneValue(DataType type) {
      this.type = type;
    }

    @Override
    public DataType getDataType() {
      return type;
    }

    @Override
    public int getSize() {
      return 1;
    }

    @Override
    public boolean isNullAt(int rowId) {
      return false;
    }

    @Override
    public void close() {}
  }

  /** The one-row checkpoint metadata column: the version, and null tags. */
  private static final class MetadataVector extends OneValue {
    private final long version;

    MetadataVector(long version) {
      super(METADATA_TYPE);
      this.version = version;
    }

    @Override
    public ColumnVector getChild(int ordinal) {
      if (ordinal == 0) {
        return new OneValue(LongType.LONG) {
          @Override
          public long getLong(int rowId) {
            return version;
          }
        };
      }
      return new NullVector(METADATA_TYPE.at(ordinal).getDataType(), 1);
    }
  }
}
