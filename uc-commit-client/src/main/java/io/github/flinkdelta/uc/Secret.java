/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.uc;

import java.io.Serializable;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.annotation.PublicEvolving;

/**
 * A credential that prints as {@code ******}: safe in records, logs and exception messages.
 *
 * <p>A secret given {@link #of by value} travels with the job: it is serialized into the job graph
 * that the client submits and the JobManager stores and deploys. A secret given {@link
 * #fromEnvironment by reference} carries only the name of an environment variable, read on each
 * process that uses it, so its value never leaves the machines that hold it.
 */
@PublicEvolving
public final class Secret implements Serializable {

  private static final long serialVersionUID = 2L;

  private static final Pattern REFERENCE = Pattern.compile("\\$\\{env\\.([A-Za-z_][A-Za-z0-9_]*)}");

  private final String value;
  private final String environmentVariable;

  private Secret(String value, String environmentVariable) {
    this.value = value;
    this.environmentVariable = environmentVariable;
  }

  /** A secret given by value. */
  public static Secret of(String value) {
    return new Secret(Objects.requireNonNull(value, "value"), null);
  }

  /** A secret read from environment variable {@code name} wherever it is used. */
  public static Secret fromEnvironment(String name) {
    Objects.requireNonNull(name, "name");
    if (!name.matches("[A-Za-z_][A-Za-z0-9_]*")) {
      throw new IllegalArgumentException("Not an environment variable name: '" + name + "'");
    }
    return new Secret(null, name);
  }

  /**
   * A secret as an option states it: {@code ${env.NAME}} refers to environment variable {@code
   * NAME} (as Hadoop's options do), anything else is the value itself.
   */
  public static Secret parse(String option) {
    Matcher reference = REFERENCE.matcher(option);
    return reference.matches() ? fromEnvironment(reference.group(1)) : of(option);
  }

  /**
   * The secret itself, for the one place that must send it.
   *
   * @throws IllegalStateException when the environment variable it refers to is not set here
   */
  public String reveal() {
    if (environmentVariable == null) {
      return value;
    }
    String resolved = System.getenv(environmentVariable);
    if (resolved == null) {
      throw new IllegalStateException(
          "The secret ${env."
              + environmentVariable
              + "} refers to environment variable "
              + environmentVariable
              + ", which is not set in this process. Set it on the Flink client, JobManager and"
              + " every TaskManager (for example through containerized.master.env.* and"
              + " containerized.taskmanager.env.*), or give the secret by value.");
    }
    return resolved;
  }

  @Override
  public String toString() {
    return environmentVariable == null ? "******" : "${env." + environmentVariable + "}";
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Secret secret
        && Objects.equals(secret.value, value)
        && Objects.equals(secret.environmentVariable, environmentVariable);
  }

  @Override
  public int hashCode() {
    return Objects.hash(value, environmentVariable);
  }
}
