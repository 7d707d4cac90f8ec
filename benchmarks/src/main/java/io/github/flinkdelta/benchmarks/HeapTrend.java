/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.benchmarks;

import java.util.ArrayList;
import java.util.List;

/**
 * The trend of live-heap samples (elapsed millis, bytes) after a warm-up share of them is dropped:
 * the averages of the first and last third, the maximum, and the least-squares slope.
 */
record HeapTrend(double firstThirdMb, double lastThirdMb, double maxMb, double slopeMbPerHour) {

  static HeapTrend of(List<long[]> samples, double warmUpShare) {
    List<long[]> steady = samples.subList((int) (samples.size() * warmUpShare), samples.size());
    if (steady.size() < 3) {
      throw new IllegalStateException("Too few heap samples: " + samples.size());
    }
    int third = steady.size() / 3;
    double first = averageMb(steady.subList(0, third));
    double last = averageMb(steady.subList(steady.size() - third, steady.size()));
    double max = steady.stream().mapToLong(s -> s[1]).max().orElse(0) / 1e6;
    double meanT = steady.stream().mapToDouble(s -> s[0]).average().orElse(0);
    double meanB = steady.stream().mapToDouble(s -> s[1]).average().orElse(0);
    double covariance = 0;
    double variance = 0;
    for (long[] s : steady) {
      covariance += (s[0] - meanT) * (s[1] - meanB);
      variance += (s[0] - meanT) * (s[0] - meanT);
    }
    double bytesPerMilli = variance == 0 ? 0 : covariance / variance;
    return new HeapTrend(first, last, max, bytesPerMilli * 3_600_000 / 1e6);
  }

  /** The sample closest after each tenth of the samples, in MB rounded to 0.1. */
  static List<Double> atEachTenth(List<long[]> samples) {
    List<Double> tenths = new ArrayList<>();
    for (int tenth = 1; tenth <= 10; tenth++) {
      int index = Math.min(samples.size() - 1, samples.size() * tenth / 10);
      tenths.add(Math.round(samples.get(index)[1] / 1e5) / 10.0);
    }
    return tenths;
  }

  private static double averageMb(List<long[]> samples) {
    return samples.stream().mapToLong(s -> s[1]).average().orElse(0) / 1e6;
  }
}
