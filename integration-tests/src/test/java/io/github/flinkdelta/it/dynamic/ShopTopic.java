/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.dynamic;

import io.github.flinkdelta.kafkatestkit.KafkaBroker;
import io.github.flinkdelta.sink.dynamic.debezium.DebeziumMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * A topic of a real Kafka broker holding a shop database's Debezium change events ({@link
 * ShopEvents}), in four partitions that the events' keys choose, and the bounded Kafka source that
 * reads it back as the Debezium generator takes records.
 */
public final class ShopTopic {

  private static final int PARTITIONS = 4;

  /** How long a new topic's partitions may wait for their leader. */
  private static final Duration LEADERS_TIMEOUT = Duration.ofMinutes(2);

  private final KafkaBroker kafka;
  private final String topic;

  private ShopTopic(KafkaBroker kafka, String topic) {
    this.kafka = kafka;
    this.topic = topic;
  }

  /** Creates topic {@code topic} and writes events {@code 0 .. count - 1} of {@code events}. */
  public static ShopTopic produce(KafkaBroker kafka, String topic, ShopEvents events, long count)
      throws Exception {
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
      admin.createTopics(List.of(new NewTopic(topic, PARTITIONS, (short) 1))).all().get();
      awaitLeaders(admin, kafka, topic);
    }
    Map<String, Object> config =
        Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
            ProducerConfig.ACKS_CONFIG, "all",
            ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName(),
            ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    // Sent without waiting for each acknowledgement: the idempotent producer (Kafka's default)
    // keeps each partition's records in the order sent; a failed send fails its future.
    List<Future<RecordMetadata>> sent = new ArrayList<>();
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config)) {
      for (long i = 0; i < count; i++) {
        DebeziumMessage event = events.event(i);
        sent.add(producer.send(new ProducerRecord<>(topic, event.key(), event.value())));
      }
      producer.flush();
    }
    for (Future<RecordMetadata> future : sent) {
      try {
        future.get();
      } catch (ExecutionException e) {
        throw new IllegalStateException(
            "The Kafka broker did not take the events for topic " + topic + "; " + kafka.logTail(),
            e);
      }
    }
    return new ShopTopic(kafka, topic);
  }

  /**
   * Waits until the broker reports a leader for each of the topic's partitions: a topic's creation
   * is acknowledged once the controller records it, which may be before the broker serves it.
   */
  private static void awaitLeaders(Admin admin, KafkaBroker kafka, String topic)
      throws InterruptedException, ExecutionException {
    long deadline = System.nanoTime() + LEADERS_TIMEOUT.toNanos();
    while (true) {
      List<TopicPartitionInfo> partitions =
          admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic).partitions();
      if (partitions.size() == PARTITIONS
          && partitions.stream().allMatch(p -> p.leader() != null && !p.leader().isEmpty())) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "The Kafka broker named no leader for every partition of topic "
                + topic
                + " within "
                + LEADERS_TIMEOUT
                + " ("
                + partitions
                + "); "
                + kafka.logTail());
      }
      Thread.sleep(50);
    }
  }

  /** The topic from its start to the end it has when the job starts. */
  public KafkaSource<DebeziumMessage> source(String groupId) {
    return KafkaSource.<DebeziumMessage>builder()
        .setBootstrapServers(kafka.bootstrapServers())
        .setTopics(topic)
        .setGroupId(groupId)
        .setStartingOffsets(OffsetsInitializer.earliest())
        .setBounded(OffsetsInitializer.latest())
        .setDeserializer(new DebeziumRecords())
        .build();
  }

  /** A Kafka record as the Debezium generator takes it: its key and value, as they are. */
  private static final class DebeziumRecords
      implements KafkaRecordDeserializationSchema<DebeziumMessage> {
    @Override
    public void deserialize(ConsumerRecord<byte[], byte[]> record, Collector<DebeziumMessage> out) {
      out.collect(new DebeziumMessage(record.key(), record.value()));
    }

    @Override
    public TypeInformation<DebeziumMessage> getProducedType() {
      return TypeInformation.of(DebeziumMessage.class);
    }
  }
}
