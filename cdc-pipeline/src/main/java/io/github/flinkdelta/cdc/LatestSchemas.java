/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.cdc;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import org.apache.flink.api.common.TaskInfo;
import org.apache.flink.cdc.common.event.ChangeEvent;
import org.apache.flink.cdc.common.event.CreateTableEvent;
import org.apache.flink.cdc.common.event.Event;
import org.apache.flink.cdc.common.event.SchemaChangeEvent;
import org.apache.flink.cdc.common.event.TableId;
import org.apache.flink.cdc.common.schema.Schema;
import org.apache.flink.cdc.runtime.operators.sink.SchemaEvolutionClient;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.runtime.jobgraph.OperatorID;
import org.apache.flink.shaded.guava31.com.google.common.hash.Hashing;
import org.apache.flink.streaming.api.graph.StreamConfig;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands the dynamic sink each table's schema as Flink CDC's schema coordinator holds it now, before
 * the table's first event in each run of the job, as Flink CDC's own sink writers get it.
 *
 * <p>After a task failure Flink CDC 3.2's coordinator keeps the schemas it has, while the job goes
 * back to its last checkpoint: the source sends the changes since again, and the coordinator hands
 * on none it has applied before. The schemas the sink kept in that checkpoint may then miss a
 * change, and the rows after it would be read by the wrong columns; {@link FlinkCdcEvents} keeps
 * both and reads each row by the one that fits it. A schema change that is a table's first event is
 * held by the schema handed on, and is not passed on again.
 */
final class LatestSchemas extends AbstractStreamOperator<Event>
    implements OneInputStreamOperator<Event, Event> {

  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(LatestSchemas.class);

  private final String schemaOperatorUid;

  private transient SchemaEvolutionClient coordinator;
  private transient Set<TableId> current;

  /**
   * @param schemaOperatorUid the uid of the pipeline's schema operator, whose coordinator holds the
   *     schemas ({@code schema.operator.uid} of the pipeline)
   */
  LatestSchemas(String schemaOperatorUid) {
    this.schemaOperatorUid = schemaOperatorUid;
  }

  @Override
  public void open() throws Exception {
    super.open();
    coordinator =
        new SchemaEvolutionClient(
            getContainingTask().getEnvironment().getOperatorCoordinatorEventGateway(),
            operatorId(schemaOperatorUid));
    current = new HashSet<>();
    warnOfParallelSchemaOperators();
  }

  /**
   * Warns, once per job, when the pipeline runs at a parallelism above one with exactly-once
   * checkpoints: Flink CDC 3.2's schema operators can then deadlock (FLINK-36690, fixed in Flink
   * CDC 3.3). One operator, holding the coordinator's permission for a schema change, sends its
   * flush behind a checkpoint barrier; the partitioner downstream waits, before it takes that
   * flush, for the barrier of another schema operator, which waits for the permission. Unaligned
   * checkpoints would hold no input back, but the dynamic sink needs aligned ones.
   */
  private void warnOfParallelSchemaOperators() {
    TaskInfo task = getRuntimeContext().getTaskInfo();
    StreamConfig config = getOperatorConfig();
    if (task.getIndexOfThisSubtask() == 0
        && task.getNumberOfParallelSubtasks() > 1
        && config.isCheckpointingEnabled()
        && config.getCheckpointMode() == CheckpointingMode.EXACTLY_ONCE) {
      LOG.warn(
          "This pipeline runs at parallelism {}. Flink CDC 3.2 can deadlock when two source"
              + " subtasks change schemas at once, e.g. creating tables in the snapshot"
              + " (FLINK-36690): its log then repeats 'Schema Registry is busy now'. Run the"
              + " pipeline at parallelism 1 to rule it out.",
          task.getNumberOfParallelSubtasks());
    }
  }

  @Override
  public void processElement(StreamRecord<Event> element) throws Exception {
    Event event = element.getValue();
    if (event instanceof CreateTableEvent create) {
      current.add(create.tableId());
    } else if (event instanceof ChangeEvent change && current.add(change.tableId())) {
      TableId table = change.tableId();
      Schema latest =
          coordinator
              .getLatestEvolvedSchema(table)
              .orElseThrow(
                  () ->
                      new IllegalStateException(
                          "Flink CDC's schema coordinator has no schema of table " + table));
      output.collect(new StreamRecord<>(FlinkCdcEvents.coordinatorSchema(table, latest)));
      if (event instanceof SchemaChangeEvent) {
        return;
      }
    }
    output.collect(element);
  }

  /**
   * The id Flink gives the operator of uid {@code uid}: a 128-bit Murmur3 hash of the uid, seed 0,
   * as Flink's stream graph hasher makes it for operators with a uid.
   */
  static OperatorID operatorId(String uid) {
    return new OperatorID(
        Hashing.murmur3_128(0).newHasher().putString(uid, StandardCharsets.UTF_8).hash().asBytes());
  }
}
