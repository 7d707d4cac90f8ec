/*
 * Copyright 2026 the flink-delta authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
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
