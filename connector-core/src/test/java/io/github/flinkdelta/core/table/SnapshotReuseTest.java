/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.delta.kernel.Snapshot;
import io.delta.kernel.engine.Engine;
import io.github.flinkdelta.core.catalog.PathTableLocator;
import io.github.flinkdelta.core.catalog.SnapshotSource;
import io.github.flinkdelta.core.catalog.TableLocator;
import io.github.flinkdelta.core.storage.HadoopConfigurations;
import io.github.flinkdelta.core.testing.TestTables;
import io.github.flinkdelta.core.write.DataFile;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Commits reuse the snapshot the previous commit produced instead of reloading the table. */
class SnapshotReuseTest {

  private static final RowType TYPE =
      RowType.of(new LogicalType[] {new BigIntType()}, new String[] {"id"});

  @TempDir Path dir;

  @Test
  void consecutiveCommitsLoadTheTableOnlyOnce() throws Exception {
    String path = dir.resolve("t").toUri().toString();
    Configuration conf = HadoopConfigurations.of(Map.of());
    TestTables.create(path, conf, TYPE, List.of(), Map.of()).close();
    CountingLocator locator = new CountingLocator(path);

    try (DeltaTable table = DeltaTable.open(TableRequest.of(locator, conf))) {
      for (long checkpoint = 1; checkpoint <= 5; checkpoint++) {
        List<DataFile> files =
            TestTables.writeFiles(path, TYPE, List.of(), List.of(GenericRowData.of(checkpoint)));
        TestTables.committed(table.commit("app", checkpoint, files));
      }
      assertThat(table.snapshot().getVersion()).isEqualTo(5);
    }
    assertThat(CountingLocator.LOADS.get()).isEqualTo(1);
  }

  /** Counts full snapshot loads; a static counter because locators are serializable values. */
  private record CountingLocator(String path) implements TableLocator {
    static final AtomicInteger LOADS = new AtomicInteger();

    @Override
    public String name() {
      return path;
    }

    @Override
    public SnapshotSource snapshots(Configuration conf) {
      SnapshotSource delegate = new PathTableLocator(path).snapshots(conf);
      return new SnapshotSource() {
        @Override
        public Snapshot latest(Engine engine) {
          LOADS.incrementAndGet();
          return delegate.latest(engine);
        }
      };
    }
  }
}
