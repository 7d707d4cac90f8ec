/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.cdc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.cdc.common.configuration.Configuration;
import org.apache.flink.cdc.common.event.TableId;
import org.apache.flink.cdc.common.factories.DataSinkFactory;
import org.apache.flink.cdc.common.factories.FactoryHelper;
import org.apache.flink.cdc.common.sink.DataSink;
import org.apache.flink.cdc.composer.utils.FactoryDiscoveryUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DeltaDataSinkFactoryTest {

  @TempDir Path dir;

  @Test
  void flinkCdcFindsTheSinkByItsTypeDelta() {
    assertThat(FactoryDiscoveryUtils.getFactoryByIdentifier("delta", DataSinkFactory.class))
        .isInstanceOf(DeltaDataSinkFactory.class);
  }

  @Test
  void aPipelineWithAWarehouseGetsTheSinkAndItsApplier() {
    DataSink sink = create(Map.of("catalog.properties.warehouse", dir.toUri().toString()));
    assertThat(sink.getEventSinkProvider()).isNotNull();
    assertThat(sink.getMetadataApplier().getSupportedSchemaEvolutionTypes())
        .isEqualTo(DeltaMetadataApplier.SUPPORTED);
  }

  @Test
  void anUnknownCatalogOptionIsRefusedNamingItAndTheKnownOnes() {
    assertThatThrownBy(
            () ->
                create(
                    Map.of(
                        "catalog.properties.warehouse",
                        dir.toUri().toString(),
                        "catalog.properties.metastore",
                        "filesystem")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("catalog.properties.metastore")
        .hasMessageContaining("catalog.properties.uri");
  }

  @Test
  void aPipelineNamingNeitherWarehouseNorCatalogIsRefusedSayingWhatToSet() {
    assertThatThrownBy(() -> create(Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("catalog.properties.warehouse")
        .hasMessageContaining("catalog.properties.uri");
  }

  @Test
  void partitionKeysAreReadInFlinkCdcsSyntaxAndAMalformedOneIsRefused() {
    assertThat(DeltaDataSinkFactory.partitionKeys("shop.orders:day; shop.items:country,day;"))
        .isEqualTo(
            Map.of(
                TableId.tableId("shop", "orders"), List.of("day"),
                TableId.tableId("shop", "items"), List.of("country", "day")));
    assertThatThrownBy(() -> DeltaDataSinkFactory.partitionKeys("shop.orders"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("partition.key")
        .hasMessageContaining("shop.orders");
  }

  private static DataSink create(Map<String, String> options) {
    Map<String, String> all = new HashMap<>(options);
    return new DeltaDataSinkFactory()
        .createDataSink(
            new FactoryHelper.DefaultContext(
                Configuration.fromMap(all),
                new Configuration(),
                DeltaDataSinkFactoryTest.class.getClassLoader()));
  }
}
