package io.github.flinkdelta.core.read;

import io.delta.kernel.internal.util.ColumnMapping;
import io.delta.kernel.types.StructField;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.data.GenericRowData;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.HadoopReadOptions;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.column.impl.ColumnReadStoreImpl;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/**
 * A data file's top-level columns read straight from parquet-java's column readers into rows, one
 * value at a time, without assembling records or filling column vectors first.
 *
 * <p>Columns are found in the file as Kernel finds them: by field id when the table gives one and
 * the file has it, then by physical name, then by name ignoring case; a column the file does not
 * have (added to the table later) reads null. {@link #open} declines a file whose columns it cannot
 * convert exactly ({@link ParquetValue#of}); such files are read through Kernel.
 */
final class ParquetColumnRows implements DataFileRows {

  private final ParquetFileReader reader;
  private final MessageType requested;
  private final String createdBy;
  private final int arity;

  /** For each column read from the file, the index it has in a row. */
  private final int[] fieldOf;

  private final ParquetValue[] values;
  private final int[] maxDefinitionLevel;
  private final ColumnReader[] columnReaders;
  private final GroupConverter root;

  private long leftInRowGroup;

  private ParquetColumnRows(
      ParquetFileReader reader,
      MessageType requested,
      int arity,
      int[] fieldOf,
      ParquetValue[] values) {
    this.reader = reader;
    this.requested = requested;
    this.createdBy = reader.getFooter().getFileMetaData().getCreatedBy();
    this.arity = arity;
    this.fieldOf = fieldOf;
    this.values = values;
    this.maxDefinitionLevel = new int[values.length];
    List<ColumnDescriptor> descriptors = requested.getColumns();
    for (int c = 0; c < values.length; c++) {
      maxDefinitionLevel[c] = descriptors.get(c).getMaxDefinitionLevel();
    }
    this.columnReaders = new ColumnReader[values.length];
    this.root = new Root(values);
  }

  /**
   * Opens {@code file} to read {@code columns}, or returns null, having closed it, when a column is
   * stored in a way this reader does not convert.
   */
  static ParquetColumnRows open(Configuration conf, ReadColumns.Resolved columns, ReadFile file)
      throws IOException {
    Path path = new Path(file.path());
    ParquetFileReader reader =
        ParquetFileReader.open(
            HadoopInputFile.fromStatus(
                new FileStatus(file.size(), false, 1, 0, file.modificationTime(), path), conf),
            HadoopReadOptions.builder(conf, path).build());
    try {
      MessageType schema = reader.getFooter().getFileMetaData().getSchema();
      List<Type> read = new ArrayList<>();
      List<Integer> fields = new ArrayList<>();
      List<ParquetValue> converters = new ArrayList<>();
      for (int i = 0; i < columns.types.length; i++) {
        if (columns.physicalIndex[i] < 0) {
          continue;
        }
        Type stored = find(schema, columns.physical.at(columns.physicalIndex[i]));
        if (stored == null) {
          continue;
        }
        ParquetValue value =
            stored.isPrimitive()
                    && !stored.isRepetition(Type.Repetition.REPEATED)
                    && !read.contains(stored)
                ? ParquetValue.of(columns.types[i], stored.asPrimitiveType())
                : null;
        if (value == null) {
          reader.close();
          return null;
        }
        read.add(stored);
        fields.add(i);
        converters.add(value);
      }
      MessageType requested = new MessageType(schema.getName(), read);
      reader.setRequestedSchema(requested);
      return new ParquetColumnRows(
          reader,
          requested,
          columns.types.length,
          fields.stream().mapToInt(Integer::intValue).toArray(),
          converters.toArray(ParquetValue[]::new));
    } catch (IOException | RuntimeException e) {
      reader.close();
      throw e;
    }
  }

  /** The field of {@code schema} that holds {@code column}, found as Kernel finds it, or null. */
  private static Type find(GroupType schema, StructField column) {
    Object id = column.getMetadata().get(ColumnMapping.PARQUET_FIELD_ID_KEY);
    if (id instanceof Number number) {
      for (Type field : schema.getFields()) {
        if (field.getId() != null && field.getId().intValue() == number.intValue()) {
          return field;
        }
      }
    }
    if (schema.containsField(column.getName())) {
      return schema.getType(column.getName());
    }
    for (Type field : schema.getFields()) {
      if (field.getName().equalsIgnoreCase(column.getName())) {
        return field;
      }
    }
    return null;
  }

  @Override
  public boolean hasNext() {
    if (leftInRowGroup > 0) {
      return true;
    }
    try {
      PageReadStore rowGroup;
      while ((rowGroup = reader.readNextRowGroup()) != null) {
        leftInRowGroup = rowGroup.getRowCount();
        if (leftInRowGroup > 0) {
          ColumnReadStoreImpl store = new ColumnReadStoreImpl(rowGroup, root, requested, createdBy);
          List<ColumnDescriptor> descriptors = requested.getColumns();
          for (int c = 0; c < columnReaders.length; c++) {
            columnReaders[c] = store.getColumnReader(descriptors.get(c));
          }
          return true;
        }
      }
      return false;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public GenericRowData next() {
    GenericRowData row = new GenericRowData(arity);
    for (int c = 0; c < columnReaders.length; c++) {
      ColumnReader column = columnReaders[c];
      if (column.getCurrentDefinitionLevel() == maxDefinitionLevel[c]) {
        column.writeCurrentValueToConverter();
        row.setField(fieldOf[c], values[c].value);
      }
      column.consume();
    }
    leftInRowGroup--;
    return row;
  }

  @Override
  public void skip() {
    for (int c = 0; c < columnReaders.length; c++) {
      ColumnReader column = columnReaders[c];
      if (column.getCurrentDefinitionLevel() == maxDefinitionLevel[c]) {
        column.skip();
      }
      column.consume();
    }
    leftInRowGroup--;
  }

  @Override
  public void close() throws IOException {
    reader.close();
  }

  /** The record converter parquet-java's column store asks for each column's converter. */
  private static final class Root extends GroupConverter {
    private final ParquetValue[] values;

    Root(ParquetValue[] values) {
      this.values = values;
    }

    @Override
    public Converter getConverter(int fieldIndex) {
      return values[fieldIndex];
    }

    @Override
    public void start() {}

    @Override
    public void end() {}
  }
}
