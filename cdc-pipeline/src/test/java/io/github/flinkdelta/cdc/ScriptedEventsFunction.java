/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.cdc;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.cdc.common.event.Event;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.functions.source.RichParallelSourceFunction;

/**
 * Sends a script's events from subtask 0 (the others send none): a few, then nothing until a
 * checkpoint taken after them completes, so that every few events fall into a checkpoint of their
 * own; its place in the script is kept in its state.
 */
@SuppressWarnings("deprecation") // Flink CDC 3.2 takes source functions.
final class ScriptedEventsFunction extends RichParallelSourceFunction<Event>
    implements CheckpointedFunction, CheckpointListener {

  private static final long serialVersionUID = 1L;

  private final String name;

  private transient ListState<Integer> sentState;
  private transient volatile int sent;
  private transient volatile int committed;
  private transient Map<Long, Integer> sentAt;
  private transient volatile boolean running;

  ScriptedEventsFunction(String name) {
    this.name = name;
  }

  @Override
  public void initializeState(FunctionInitializationContext context) throws Exception {
    sentState =
        context.getOperatorStateStore().getListState(new ListStateDescriptor<>("sent", Types.INT));
    sentAt = new ConcurrentHashMap<>();
    for (Integer restored : sentState.get()) {
      sent = Math.max(sent, restored);
    }
    committed = sent;
    running = true;
  }

  @Override
  public void run(SourceContext<Event> context) throws Exception {
    if (getRuntimeContext().getTaskInfo().getIndexOfThisSubtask() != 0) {
      return;
    }
    ScriptedEventsFactory.Script script = ScriptedEventsFactory.script(name);
    List<Event> events = script.events();
    while (running && sent < events.size()) {
      synchronized (context.getCheckpointLock()) {
        int end = Math.min(events.size(), sent + script.perCheckpoint());
        for (int i = sent; i < end; i++) {
          context.collect(events.get(i));
          if (i == script.failAfter() && script.failures().get() == 0) {
            script.failures().incrementAndGet();
            throw new IllegalStateException("Injected failure after event " + i);
          }
        }
        sent = end;
      }
      while (running && committed < sent) {
        Thread.sleep(5);
      }
    }
  }

  @Override
  public void snapshotState(FunctionSnapshotContext context) throws Exception {
    sentState.update(List.of(sent));
    sentAt.put(context.getCheckpointId(), sent);
  }

  @Override
  public void notifyCheckpointComplete(long checkpointId) {
    Integer at = sentAt.remove(checkpointId);
    if (at != null) {
      committed = Math.max(committed, at);
    }
  }

  @Override
  public void cancel() {
    running = false;
  }
}
