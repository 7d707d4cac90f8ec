/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks;

import java.lang.management.ManagementFactory;

/** The machine a figure was measured on. */
final class Machine {

  private Machine() {}

  static String describe() {
    com.sun.management.OperatingSystemMXBean os =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    return String.format(
        "%d cores, %d GiB RAM, %s %s, Java %s, Flink %s",
        Runtime.getRuntime().availableProcessors(),
        os.getTotalMemorySize() >> 30,
        System.getProperty("os.name"),
        System.getProperty("os.arch"),
        System.getProperty("java.version"),
        org.apache.flink.runtime.util.EnvironmentInformation.getVersion());
  }
}
