/*
 * Copyright 2026 the flink-delta authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
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
