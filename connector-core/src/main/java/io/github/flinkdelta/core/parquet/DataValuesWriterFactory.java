/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.parquet;

import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.column.values.ValuesWriter;
import org.apache.parquet.column.values.factory.DefaultValuesWriterFactory;
import org.apache.parquet.column.values.factory.ValuesWriterFactory;
import org.apache.parquet.column.values.fallback.FallbackValuesWriter;
import org.apache.parquet.column.values.plain.PlainValuesWriter;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * The value encoders of data files: parquet-java's defaults for Parquet format 1.0 pages, except
 * that dictionary-encoded {@code BINARY} columns use {@link BinaryDictionaryWriter}, falling back
 * to plain encoding under the same rules.
 */
final class DataValuesWriterFactory implements ValuesWriterFactory {

  private final DefaultValuesWriterFactory defaults = new DefaultValuesWriterFactory();
  private ParquetProperties properties;

  @Override
  public void initialize(ParquetProperties properties) {
    if (properties.getWriterVersion() != ParquetProperties.WriterVersion.PARQUET_1_0) {
      throw new IllegalArgumentException(
          "Data files are written with Parquet 1.0 pages, not " + properties.getWriterVersion());
    }
    this.properties = properties;
    defaults.initialize(properties);
  }

  @Override
  public ValuesWriter newValuesWriter(ColumnDescriptor column) {
    if (column.getPrimitiveType().getPrimitiveTypeName() != PrimitiveTypeName.BINARY
        || !properties.isDictionaryEnabled(column)) {
      return defaults.newValuesWriter(column);
    }
    return FallbackValuesWriter.of(
        new BinaryDictionaryWriter(
            properties.getDictionaryPageSizeThreshold(),
            Encoding.PLAIN_DICTIONARY,
            Encoding.PLAIN_DICTIONARY,
            properties.getAllocator()),
        new PlainValuesWriter(
            properties.getInitialSlabSize(),
            properties.getPageSizeThreshold(),
            properties.getAllocator()));
  }
}
