package io.github.flinkdelta.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkdelta.core.storage.HadoopConfigurations;
import io.github.flinkdelta.core.table.DeltaTable;
import io.github.flinkdelta.core.testing.DeltaTableReader;
import io.github.flinkdelta.sink.DeltaSink;
import io.github.flinkdelta.uc.CatalogTable;
import io.github.flinkdelta.uc.UcTableName;
import io.github.flinkdelta.uc.UnityCatalogClient;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import io.github.flinkdelta.uc.UnityCatalogTableLocator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * End-to-end checks that hold against any Unity Catalog: the embedded test server, a real endpoint
 * named in the environment, or the Unity Catalog OSS image. Each implementation says where the
 * catalog is.
 */
abstract class UnityCatalogContract {

  @RegisterExtension static final MiniClusterExtension CLUSTER = MiniClusters.extension();

  private static final int BUCKETS = 3;

  /** The catalog to test. */
  abstract UnityCatalogConnection connection();

  /** A catalog and schema in which the tests may create tables. */
  abstract String catalog();

  abstract String schema();

  @Test
  void managedTableIsCreatedAndWrittenExactlyOnceThroughTaskFailures() throws Exception {
    String table =
        catalog()
            + "."
            + schema()
            + ".flink_delta_"
            + UUID.randomUUID().toString().replace("-", "");
    long count = 2_000;
    StreamExecutionEnvironment env = MiniClusters.env(150, 4, 2);
    TestRows.source(env, count, 2_000, BUCKETS)
        .map(new FailingMapper(2, 400))
        .sinkTo(
            DeltaSink.builder()
                .unityCatalog(connection())
                .tableName(table)
                .rowType(TestRows.TYPE)
                .partitionColumns("bucket")
                .build());
    env.execute("contract: exactly once");

    var conf = HadoopConfigurations.of(Map.of());
    try (UnityCatalogClient client = new UnityCatalogClient(connection(), conf)) {
      CatalogTable found = client.find(UcTableName.parse(table)).orElseThrow();
      assertThat(found.managed()).isTrue();
      try (DeltaTable delta =
          DeltaTable.open(new UnityCatalogTableLocator(connection(), found), conf)) {
        List<List<Object>> rows = DeltaTableReader.read(delta.engine(), delta.snapshot());
        assertThat(rows).containsExactlyInAnyOrderElementsOf(TestRows.expected(count, BUCKETS));
      }
    }
  }
}
