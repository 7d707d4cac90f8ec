package io.github.flinkdelta.sink.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkdelta.sink.catalog.UnityCatalogCatalogOptions;
import org.apache.flink.configuration.GlobalConfiguration;
import org.junit.jupiter.api.Test;

/** Secret options are named so that Flink masks their values wherever it prints options. */
class DeltaTableOptionsTest {

  @Test
  void secretOptionsAreSensitive() {
    assertThat(GlobalConfiguration.isSensitive(DeltaTableOptions.UC_TOKEN.key())).isTrue();
    assertThat(GlobalConfiguration.isSensitive(DeltaTableOptions.UC_OAUTH_CLIENT_SECRET.key()))
        .isTrue();
    assertThat(GlobalConfiguration.isSensitive(UnityCatalogCatalogOptions.TOKEN.key())).isTrue();
    assertThat(
            GlobalConfiguration.isSensitive(UnityCatalogCatalogOptions.OAUTH_CLIENT_SECRET.key()))
        .isTrue();
    assertThat(GlobalConfiguration.isSensitive(HadoopOptions.PREFIX + "fs.s3a.secret.key"))
        .isTrue();
    assertThat(GlobalConfiguration.isSensitive(DeltaTableOptions.TABLE_PATH.key())).isFalse();
  }
}
