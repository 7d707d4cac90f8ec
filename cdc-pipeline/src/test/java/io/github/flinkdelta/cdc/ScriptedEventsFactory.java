/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.cdc;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.cdc.common.configuration.ConfigOption;
import org.apache.flink.cdc.common.configuration.ConfigOptions;
import org.apache.flink.cdc.common.event.Event;
import org.apache.flink.cdc.common.event.TableId;
import org.apache.flink.cdc.common.factories.DataSourceFactory;
import org.apache.flink.cdc.common.factories.FactoryHelper;
import org.apache.flink.cdc.common.schema.Schema;
import org.apache.flink.cdc.common.source.DataSource;
import org.apache.flink.cdc.common.source.EventSourceProvider;
import org.apache.flink.cdc.common.source.FlinkSourceFunctionProvider;
import org.apache.flink.cdc.common.source.MetadataAccessor;

/**
 * A Flink CDC pipeline source for tests ({@code source: type: scripted-events}): it sends the
 * events of a script a test registered under a name, a few between checkpoints, and fails the job
 * once after the event the script names.
 */
public final class ScriptedEventsFactory implements DataSourceFactory {

  static final ConfigOption<String> SCRIPT =
      ConfigOptions.key("script").stringType().noDefaultValue();

  private static final Map<String, Script> SCRIPTS = new ConcurrentHashMap<>();

  /**
   * Events to send, {@code perCheckpoint} of them between checkpoints, the job failed once after
   * event {@code failAfter} (none when negative); {@link #failures} counts the failures that fired.
   */
  record Script(List<Event> events, int perCheckpoint, int failAfter, AtomicInteger failures) {}

  /** Registers {@code events} under {@code name}; the returned script counts its failures. */
  static Script register(String name, List<Event> events, int perCheckpoint, int failAfter) {
    Script script = new Script(List.copyOf(events), perCheckpoint, failAfter, new AtomicInteger());
    SCRIPTS.put(name, script);
    return script;
  }

  static Script script(String name) {
    Script script = SCRIPTS.get(name);
    if (script == null) {
      throw new IllegalStateException("No script registered as " + name);
    }
    return script;
  }

  @Override
  public String identifier() {
    return "scripted-events";
  }

  @Override
  public Set<ConfigOption<?>> requiredOptions() {
    return Set.of(SCRIPT);
  }

  @Override
  public Set<ConfigOption<?>> optionalOptions() {
    return Set.of();
  }

  @Override
  public DataSource createDataSource(Context context) {
    FactoryHelper.createFactoryHelper(this, context).validate();
    String name = context.getFactoryConfiguration().get(SCRIPT);
    script(name);
    return new DataSource() {
      @Override
      public EventSourceProvider getEventSourceProvider() {
        return FlinkSourceFunctionProvider.of(new ScriptedEventsFunction(name));
      }

      @Override
      public MetadataAccessor getMetadataAccessor() {
        return new MetadataAccessor() {
          @Override
          public List<String> listNamespaces() {
            throw new UnsupportedOperationException();
          }

          @Override
          public List<String> listSchemas(String namespace) {
            throw new UnsupportedOperationException();
          }

          @Override
          public List<TableId> listTables(String namespace, String schemaName) {
            throw new UnsupportedOperationException();
          }

          @Override
          public Schema getTableSchema(TableId tableId) {
            throw new UnsupportedOperationException();
          }
        };
      }
    };
  }
}
