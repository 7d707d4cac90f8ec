/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.common;

import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.GlobalConfiguration;

/**
 * Which environment variables a secret in the options of a table, a catalog or a sink may name
 * ({@code ${env.NAME}}): only those the cluster allows, in the Flink configuration of the process
 * that reads the options ({@link #ALLOWED}, from its {@code config.yaml}). Options are written by
 * whoever writes the SQL, while the variables belong to the cluster: on a shared SQL gateway, a
 * reference to any variable, sent as a bearer token to a server of the writer's choice, would hand
 * the cluster's environment to that writer. Hadoop's own variable syntax in storage options ({@code
 * ${...}}, which Hadoop expands from the environment, system properties and other configuration
 * keys) is held to the same rule.
 *
 * <p>A refusal names the option and the rule, never whether the variable exists.
 */
@PublicEvolving
public final class EnvironmentReferences {

  /** The cluster's list of variables options may name; {@code NAME_*} allows a prefix. */
  public static final ConfigOption<List<String>> ALLOWED =
      ConfigOptions.key("delta.secrets.allowed-environment-variables")
          .stringType()
          .asList()
          .noDefaultValue()
          .withDescription(
              "Environment variables that the secrets of Delta tables, catalogs and sinks may"
                  + " name as ${env.NAME} (a name ending in * allows every name with its"
                  + " prefix), read from the Flink configuration of the cluster's processes (its"
                  + " config.yaml), never from table or session options. Unset, no option may"
                  + " name a variable.");

  private static final Pattern VARIABLE = Pattern.compile("\\$\\{([^}]*)}");
  private static final Pattern ENVIRONMENT = Pattern.compile("env\\.([A-Za-z_][A-Za-z0-9_]*)");

  private static volatile List<String> clusterAllowed;

  private final List<String> allowed;

  private EnvironmentReferences(List<String> allowed) {
    this.allowed = List.copyOf(allowed);
  }

  /** The rule of this process's Flink configuration ({@code FLINK_CONF_DIR}). */
  public static EnvironmentReferences ofCluster() {
    List<String> names = clusterAllowed;
    if (names == null) {
      Configuration configuration = GlobalConfiguration.loadConfiguration();
      names = configuration.getOptional(ALLOWED).orElse(List.of());
      clusterAllowed = names;
    }
    return new EnvironmentReferences(names);
  }

  /** A rule allowing {@code names}: for tests. */
  static EnvironmentReferences allowing(List<String> names) {
    return new EnvironmentReferences(names);
  }

  /**
   * Fails unless every variable {@code value} of option {@code key} names is allowed.
   *
   * @param owner what the option belongs to, for messages, e.g. {@code "Table main.db.orders"}
   * @throws IllegalArgumentException naming the option and what a cluster administrator can do
   */
  public void check(String owner, String key, String value) {
    if (value == null) {
      return;
    }
    Matcher variables = VARIABLE.matcher(value);
    while (variables.find()) {
      Matcher environment = ENVIRONMENT.matcher(variables.group(1));
      if (!environment.matches()) {
        throw new IllegalArgumentException(
            String.format(
                "%s: option '%s' holds a ${...} expression, which Hadoop would expand from the"
                    + " process's system properties or configuration; options may only name"
                    + " environment variables as ${env.NAME}, and only those the cluster allows"
                    + " ('%s').",
                owner, key, ALLOWED.key()));
      }
      if (!allows(environment.group(1))) {
        throw new IllegalArgumentException(
            String.format(
                "%s: option '%s' names an environment variable that the cluster does not let"
                    + " options name. A cluster administrator lists the variables secrets may"
                    + " name in '%s' of the Flink configuration (config.yaml); or give the secret"
                    + " by value.",
                owner, key, ALLOWED.key()));
      }
    }
  }

  /** As {@link #check(String, String, String)}, for every option of {@code options}. */
  public void checkAll(String owner, Map<String, String> options) {
    options.forEach((key, value) -> check(owner, key, value));
  }

  private boolean allows(String name) {
    for (String allowedName : allowed) {
      String trimmed = allowedName.trim();
      if (trimmed.endsWith("*")
          ? name.startsWith(trimmed.substring(0, trimmed.length() - 1))
          : name.equals(trimmed)) {
        return true;
      }
    }
    return false;
  }
}
