/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.read;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.apache.parquet.bytes.ByteBufferInputStream;
import org.apache.parquet.bytes.BytesUtils;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.ValuesType;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DataPageV1;
import org.apache.parquet.column.page.DataPageV2;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.column.values.ValuesReader;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridDecoder;
import org.apache.parquet.io.ParquetDecodingException;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * One top-level column's values in one row group, page by page, handed to its {@link ParquetValue}
 * one row at a time.
 *
 * <p>The encodings Parquet writers use for such columns are decoded here straight from the page's
 * bytes: definition levels in the RLE/bit-packed hybrid, dictionary ids, and plain values read from
 * a little-endian buffer. Any other value encoding (the delta encodings, byte stream split) goes
 * through parquet-java's own decoder for it.
 */
final class ColumnChunkReader {

  private enum Values {
    DICTIONARY,
    PLAIN,
    OTHER
  }

  private final ColumnDescriptor column;
  private final PageReader pages;
  private final ParquetValue value;
  private final PrimitiveTypeName type;
  private final int maxDefinitionLevel;
  private final int fixedLength;

  private int leftInPage;
  private RunLengthBitPackingHybridDecoder definitionLevels;
  private ValuesReader otherDefinitionLevels;

  private Values encoding;
  private RunLengthBitPackingHybridDecoder dictionaryIds;
  private ByteBuffer plain;
  private int booleanStart;
  private int booleansRead;
  private ValuesReader other;

  ColumnChunkReader(ColumnDescriptor column, PageReader pages, ParquetValue value) {
    this.column = column;
    this.pages = pages;
    this.value = value;
    this.type = column.getPrimitiveType().getPrimitiveTypeName();
    this.maxDefinitionLevel = column.getMaxDefinitionLevel();
    this.fixedLength = column.getPrimitiveType().getTypeLength();
    DictionaryPage dictionary = pages.readDictionaryPage();
    if (dictionary != null) {
      try {
        value.setDictionary(dictionary.getEncoding().initDictionary(column, dictionary));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /** Writes the next row's value, or its null, into the row being built. */
  void read() throws IOException {
    if (isPresent()) {
      switch (encoding) {
        case DICTIONARY -> value.addValueFromDictionary(dictionaryIds.readInt());
        case PLAIN -> readPlain();
        case OTHER -> readOther();
      }
    } else {
      value.writer.setNullAt(value.field);
    }
  }

  /** Passes over the next row's value. */
  void skip() throws IOException {
    if (isPresent()) {
      switch (encoding) {
        case DICTIONARY -> dictionaryIds.readInt();
        case PLAIN -> skipPlain();
        case OTHER -> other.skip();
      }
    }
  }

  /** Moves to the next row, and says whether it has a value. */
  private boolean isPresent() throws IOException {
    if (leftInPage == 0) {
      nextPage();
    }
    leftInPage--;
    if (maxDefinitionLevel == 0) {
      return true;
    }
    int level =
        definitionLevels != null ? definitionLevels.readInt() : otherDefinitionLevels.readInteger();
    return level == maxDefinitionLevel;
  }

  private void nextPage() throws IOException {
    DataPage page = pages.readPage();
    if (page == null) {
      throw new ParquetDecodingException("Column " + column + " has fewer values than rows");
    }
    leftInPage = page.getValueCount();
    int levelWidth = BytesUtils.getWidthFromMaxInt(maxDefinitionLevel);
    if (page instanceof DataPageV1 v1) {
      ByteBufferInputStream in = v1.getBytes().toInputStream();
      // Top-level columns are not repeated: their pages hold no repetition levels.
      definitionLevels = null;
      otherDefinitionLevels = null;
      if (maxDefinitionLevel > 0) {
        if (v1.getDlEncoding() == Encoding.RLE) {
          int length = BytesUtils.readIntLittleEndian(in);
          definitionLevels =
              new RunLengthBitPackingHybridDecoder(levelWidth, in.sliceStream(length));
        } else {
          otherDefinitionLevels =
              v1.getDlEncoding().getValuesReader(column, ValuesType.DEFINITION_LEVEL);
          otherDefinitionLevels.initFromPage(leftInPage, in);
        }
      }
      startValues(v1.getValueEncoding(), in);
    } else {
      DataPageV2 v2 = (DataPageV2) page;
      definitionLevels =
          maxDefinitionLevel > 0
              ? new RunLengthBitPackingHybridDecoder(
                  levelWidth, v2.getDefinitionLevels().toInputStream())
              : null;
      otherDefinitionLevels = null;
      startValues(v2.getDataEncoding(), v2.getData().toInputStream());
    }
  }

  private void startValues(Encoding pageEncoding, ByteBufferInputStream in) throws IOException {
    if (pageEncoding.usesDictionary()) {
      encoding = Values.DICTIONARY;
      int idWidth = BytesUtils.readIntLittleEndianOnOneByte(in);
      dictionaryIds = new RunLengthBitPackingHybridDecoder(idWidth, in);
    } else if (pageEncoding == Encoding.PLAIN && type != PrimitiveTypeName.INT96) {
      encoding = Values.PLAIN;
      plain = in.slice(in.available()).order(ByteOrder.LITTLE_ENDIAN);
      booleanStart = plain.position();
      booleansRead = 0;
    } else {
      encoding = Values.OTHER;
      other = pageEncoding.getValuesReader(column, ValuesType.VALUES);
      other.initFromPage(leftInPage, in);
    }
  }

  private void readPlain() {
    switch (type) {
      case INT32 -> value.addInt(plain.getInt());
      case INT64 -> value.addLong(plain.getLong());
      case DOUBLE -> value.addDouble(plain.getDouble());
      case FLOAT -> value.addFloat(plain.getFloat());
      case BOOLEAN -> value.addBoolean(nextBoolean());
      case BINARY -> value.addBinary(bytes(plain.getInt()));
      case FIXED_LEN_BYTE_ARRAY -> value.addBinary(bytes(fixedLength));
      default -> throw new ParquetDecodingException("Column " + column + " has no plain reader");
    }
  }

  private void skipPlain() {
    switch (type) {
      case INT32, FLOAT -> plain.position(plain.position() + 4);
      case INT64, DOUBLE -> plain.position(plain.position() + 8);
      case BOOLEAN -> booleansRead++;
      case BINARY -> {
        int length = plain.getInt();
        plain.position(plain.position() + length);
      }
      case FIXED_LEN_BYTE_ARRAY -> plain.position(plain.position() + fixedLength);
      default -> throw new ParquetDecodingException("Column " + column + " has no plain reader");
    }
  }

  /** Plain booleans are bit-packed, the first value in the lowest bit. */
  private boolean nextBoolean() {
    int bit = booleansRead++;
    return ((plain.get(booleanStart + (bit >>> 3)) >>> (bit & 7)) & 1) != 0;
  }

  private Binary bytes(int length) {
    Binary bytes;
    if (plain.hasArray()) {
      bytes =
          Binary.fromConstantByteArray(
              plain.array(), plain.arrayOffset() + plain.position(), length);
      plain.position(plain.position() + length);
    } else {
      byte[] copy = new byte[length];
      plain.get(copy);
      bytes = Binary.fromConstantByteArray(copy);
    }
    return bytes;
  }

  private void readOther() {
    switch (type) {
      case INT32 -> value.addInt(other.readInteger());
      case INT64 -> value.addLong(other.readLong());
      case DOUBLE -> value.addDouble(other.readDouble());
      case FLOAT -> value.addFloat(other.readFloat());
      case BOOLEAN -> value.addBoolean(other.readBoolean());
      default -> value.addBinary(other.readBytes());
    }
  }
}
