/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.uc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Secrets by value and by reference: what they print, what they serialize, what they reveal. */
class SecretTest {

  @Test
  void aReferenceIsReadFromTheEnvironmentAndSerializesOnlyItsName() throws IOException {
    String variable = System.getenv().containsKey("PATH") ? "PATH" : "HOME";
    Secret secret = Secret.parse("${env." + variable + "}");

    assertThat(secret).isEqualTo(Secret.fromEnvironment(variable));
    assertThat(secret.reveal()).isEqualTo(System.getenv(variable));
    assertThat(secret.toString()).isEqualTo("${env." + variable + "}");
    assertThat(serialized(secret)).contains(variable).doesNotContain(System.getenv(variable));
  }

  @Test
  void aValueIsKeptAsItIsAndPrintsMasked() throws IOException {
    Secret secret = Secret.parse("s3cr3t-${env.X");

    assertThat(secret.reveal()).isEqualTo("s3cr3t-${env.X");
    assertThat(secret.toString()).isEqualTo("******");
    assertThat(serialized(secret)).contains("s3cr3t");
  }

  @Test
  void aMissingVariableFailsNamingItAndWhereToSetIt() {
    Secret secret = Secret.fromEnvironment("FLINK_DELTA_SURELY_UNSET_VARIABLE");

    assertThatThrownBy(secret::reveal)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("environment variable FLINK_DELTA_SURELY_UNSET_VARIABLE")
        .hasMessageContaining("every TaskManager");
    assertThatThrownBy(() -> Secret.fromEnvironment("NOT-A-NAME"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private static String serialized(Secret secret) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(secret);
    }
    return bytes.toString(StandardCharsets.ISO_8859_1);
  }
}
