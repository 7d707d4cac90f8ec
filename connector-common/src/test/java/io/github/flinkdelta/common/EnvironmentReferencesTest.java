/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.common;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;

/**
 * Secrets in options name environment variables only where the cluster allows it, and a refusal
 * never tells whether the variable exists.
 */
class EnvironmentReferencesTest {

  @Test
  void aVariableTheClusterDoesNotAllowIsRefusedWithoutSayingWhetherItExists() {
    EnvironmentReferences none = EnvironmentReferences.allowing(List.of());
    // PATH exists in every process, FLINK_DELTA_NO_SUCH_VARIABLE in none: one message for both.
    String existing = message(none, "${env.PATH}");
    String missing = message(none, "${env.FLINK_DELTA_NO_SUCH_VARIABLE}");

    assertThatThrownBy(() -> none.check("Table t", "uc.token", "${env.PATH}"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Table t")
        .hasMessageContaining("'uc.token'")
        .hasMessageContaining(EnvironmentReferences.ALLOWED.key());
    org.assertj.core.api.Assertions.assertThat(existing).isEqualTo(missing).doesNotContain("PATH");
  }

  @Test
  void namesAndPrefixesTheClusterListsAreAllowed() {
    EnvironmentReferences some = EnvironmentReferences.allowing(List.of("UC_TOKEN", "TEAM_A_*"));

    assertThatCode(() -> some.check("Table t", "uc.token", "${env.UC_TOKEN}"))
        .doesNotThrowAnyException();
    assertThatCode(() -> some.check("Table t", "uc.token", "${env.TEAM_A_SECRET}"))
        .doesNotThrowAnyException();
    assertThatCode(() -> some.check("Table t", "uc.token", "plain value"))
        .doesNotThrowAnyException();
    assertThatThrownBy(() -> some.check("Table t", "uc.token", "${env.TEAM_B_SECRET}"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void hadoopExpressionsOtherThanAllowedVariablesAreRefused() {
    EnvironmentReferences some = EnvironmentReferences.allowing(List.of("UC_TOKEN"));

    for (String value :
        List.of("${fs.s3a.secret.key}", "${sys.user.home}", "prefix-${env.AWS_SECRET}-suffix")) {
      assertThatThrownBy(() -> some.check("Table t", "hadoop.fs.s3a.session.token", value))
          .as(value)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("'hadoop.fs.s3a.session.token'");
    }
  }

  @Test
  void tableOptionsOfAClusterWithoutTheListNameNoVariable() {
    // This test JVM's Flink configuration (FLINK_CONF_DIR) does not list the variable.
    Map<String, String> options =
        Map.of("hadoop.fs.s3a.secret.key", "${env.FLINK_DELTA_NOT_LISTED}");
    assertThatThrownBy(() -> HadoopOptions.from("Table t", options))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Table t");
    Configuration uc = new Configuration();
    uc.setString("uc.uri", "https://uc.example.com");
    uc.setString("uc.token", "${env.FLINK_DELTA_NOT_LISTED}");
    assertThatThrownBy(() -> UnityCatalogOptions.connection(uc, "Catalog c"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'uc.token'");
  }

  private static String message(EnvironmentReferences references, String value) {
    try {
      references.check("Table t", "uc.token", value);
      throw new AssertionError("not refused: " + value);
    } catch (IllegalArgumentException e) {
      return e.getMessage();
    }
  }
}
