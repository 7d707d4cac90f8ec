package io.github.flinkdelta.core.parquet;

import java.util.Map;
import org.apache.flink.table.data.RowData;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.MessageType;

/** Hands Flink rows to parquet-hadoop's record consumer, one field at a time. */
final class RowDataWriteSupport extends WriteSupport<RowData> {

  private final MessageType schema;
  private final FieldsWriter fields;
  private RecordConsumer consumer;

  RowDataWriteSupport(MessageType schema, FieldsWriter fields) {
    this.schema = schema;
    this.fields = fields;
  }

  @Override
  public WriteContext init(Configuration configuration) {
    return new WriteContext(schema, Map.of("writer", "flink-delta"));
  }

  @Override
  public void prepareForWrite(RecordConsumer recordConsumer) {
    this.consumer = recordConsumer;
  }

  @Override
  public void write(RowData row) {
    // Top-level NOT NULL columns are checked before the record starts, so a bad row leaves the
    // file consistent.
    fields.checkNotNull(row);
    consumer.startMessage();
    fields.write(consumer, row);
    consumer.endMessage();
  }
}
