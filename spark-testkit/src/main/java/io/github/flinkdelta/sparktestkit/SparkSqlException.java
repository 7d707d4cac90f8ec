/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sparktestkit;

import java.nio.file.Path;
import java.util.Optional;

/**
 * A statement Spark refused or failed to run, as Spark reported it in the child JVM. Spark's own
 * exception cannot cross into the caller's JVM (its class is not on the caller's classpath), so
 * this carries its class name, its message and, for Spark's classified errors, its error condition:
 * tests can assert on any of them. The Spark child keeps running.
 */
public final class SparkSqlException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final String statement;
  private final String sparkExceptionClass;
  private final String errorCondition;
  private final String sparkMessage;

  SparkSqlException(
      String statement,
      String sparkExceptionClass,
      String errorCondition,
      String sparkMessage,
      Path log) {
    super(
        sparkExceptionClass
            + ": "
            + sparkMessage
            + "\nStatement: "
            + statement
            + "\nThe stack trace is in "
            + log);
    this.statement = statement;
    this.sparkExceptionClass = sparkExceptionClass;
    this.errorCondition = errorCondition;
    this.sparkMessage = sparkMessage;
  }

  /** The statement that failed. */
  public String statement() {
    return statement;
  }

  /**
   * The fully qualified class name of the exception Spark threw, e.g. {@code
   * org.apache.spark.sql.AnalysisException}.
   */
  public String sparkExceptionClass() {
    return sparkExceptionClass;
  }

  /**
   * Spark's error condition, e.g. {@code TABLE_OR_VIEW_NOT_FOUND}, when the exception has one
   * (Spark's and Delta's classified errors do).
   */
  public Optional<String> errorCondition() {
    return Optional.ofNullable(errorCondition);
  }

  /** The exception's message as Spark wrote it, possibly over several lines. */
  public String sparkMessage() {
    return sparkMessage;
  }
}
