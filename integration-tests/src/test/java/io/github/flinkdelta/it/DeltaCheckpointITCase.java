package io.github.flinkdelta.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkdelta.core.config.DeltaSinkOptions;
import io.github.flinkdelta.sink.DeltaSink;
import io.github.flinkdelta.sink.DeltaSinkBuilder;
import io.github.flinkdelta.testkit.UnityCatalogServer;
import io.github.flinkdelta.testkit.UnityCatalogServerExtension;
import io.github.flinkdelta.uc.Secret;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.testutils.junit.SharedObjectsExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A streaming job writes Delta checkpoints every few versions, on a path table and on a Unity
 * Catalog managed table (after its commits are published), with task failures in between; the table
 * reads back exactly.
 */
class DeltaCheckpointITCase {

  @RegisterExtension static final FlinkCluster FLINK = FlinkCluster.create();

  @RegisterExtension final SharedObjectsExtension shared = SharedObjectsExtension.create();
  private final FaultCounter injected = FaultCounter.in(shared);

  private static final int BUCKETS = 3;
  private static final long ROWS = 3_000;

  @TempDir Path dir;

  @RegisterExtension
  final UnityCatalogServerExtension catalog = new UnityCatalogServerExtension(uc -> uc.token("t"));

  @Test
  void aPathTableGetsCheckpointsEveryThreeVersions() throws Exception {
    String table = dir.resolve("path").toUri().toString();
    run(DeltaSink.builder().tablePath(table));

    ExactlyOnceITCase.assertExactly(table, ROWS, BUCKETS);
    assertThat(checkpointFiles(dir.resolve("path"))).isNotEmpty();
  }

  @Test
  void aUnityCatalogTableGetsCheckpointsOfPublishedVersions() throws Exception {
    UnityCatalogServer server = catalog.server();
    UnityCatalogConnection connection = new UnityCatalogConnection(server.uri(), Secret.of("t"));
    run(DeltaSink.builder().unityCatalog(connection).tableName("main.default.checkpointed"));

    assertThat(CatalogReads.rows(connection, "main.default.checkpointed"))
        .containsExactlyInAnyOrderElementsOf(TestRows.expected(ROWS, BUCKETS));
    assertThat(checkpointFiles(catalog.storageRoot())).isNotEmpty();
  }

  private void run(DeltaSinkBuilder builder) throws Exception {
    StreamExecutionEnvironment env = FLINK.job().checkpointEveryMillis(100).restarts(3).env();
    TestRows.source(env, ROWS, 1_500, BUCKETS)
        .map(new FailingMapper(injected, 1, 900))
        .sinkTo(
            builder
                .rowType(TestRows.TYPE)
                .partitionColumns("bucket")
                .option(DeltaSinkOptions.DELTA_CHECKPOINT_INTERVAL, 3)
                .build());
    env.execute("delta checkpoints");
    assertThat(injected.count()).isPositive();
  }

  /** The checkpoint files under {@code root}; never a hidden temporary one. */
  private static List<String> checkpointFiles(Path root) throws IOException {
    try (Stream<Path> files = Files.walk(root)) {
      List<String> names = files.map(p -> p.getFileName().toString()).toList();
      assertThat(names).noneMatch(n -> n.endsWith(".tmp"));
      return names.stream().filter(n -> n.endsWith(".checkpoint.parquet")).toList();
    }
  }
}
