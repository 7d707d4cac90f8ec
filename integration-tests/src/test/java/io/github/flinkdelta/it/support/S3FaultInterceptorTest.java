/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;

/** The interceptor counts bursts that faulted a request, not bursts armed. */
class S3FaultInterceptorTest {

  private final S3FaultInterceptor interceptor = new S3FaultInterceptor();

  @BeforeEach
  @AfterEach
  public void reset() {
    S3FaultInterceptor.clear();
    S3FaultInterceptor.resetCounts();
  }

  @Test
  public void aBurstReplacedOrClearedBeforeAnyRequestDidNotFire() {
    S3FaultInterceptor.resetNext(3);
    S3FaultInterceptor.resetNext(1);
    assertThat(S3FaultInterceptor.resetsFired()).isZero();

    assertThatThrownBy(this::send).isInstanceOf(SdkClientException.class);
    assertThatCode(this::send).doesNotThrowAnyException();
    assertThat(S3FaultInterceptor.resetsFired()).isEqualTo(1);

    S3FaultInterceptor.resetNext(2);
    assertThatThrownBy(this::send).isInstanceOf(SdkClientException.class);
    assertThatThrownBy(this::send).isInstanceOf(SdkClientException.class);
    S3FaultInterceptor.resetNext(4);
    S3FaultInterceptor.clear();
    assertThatCode(this::send).doesNotThrowAnyException();

    assertThat(S3FaultInterceptor.resetsFired()).isEqualTo(2);
    assertThat(S3FaultInterceptor.injected()).isEqualTo(3);
    assertThat(S3FaultInterceptor.slowDownsFired()).isZero();
  }

  private void send() {
    interceptor.beforeTransmission(null, new ExecutionAttributes());
  }
}
