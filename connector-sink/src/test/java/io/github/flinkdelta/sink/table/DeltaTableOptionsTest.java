package io.github.flinkdelta.sink.table;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.flink.configuration.GlobalConfiguration;
import org.junit.jupiter.api.Test;

/** Secret options are named so that Flink masks their values wherever it prints options. */
class DeltaTableOptionsTest {

  @Test
  void theTokenOptionIsSensitive() {
    assertThat(GlobalConfiguration.isSensitive(DeltaTableOptions.UC_TOKEN.key())).isTrue();
    assertThat(GlobalConfiguration.isSensitive(DeltaTableOptions.TABLE_PATH.key())).isFalse();
  }
}
