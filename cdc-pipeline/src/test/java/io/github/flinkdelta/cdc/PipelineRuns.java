/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.cdc;

import java.net.URI;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.cdc.cli.parser.YamlPipelineDefinitionParser;
import org.apache.flink.cdc.common.configuration.Configuration;
import org.apache.flink.cdc.composer.definition.PipelineDef;
import org.apache.flink.cdc.composer.flink.FlinkPipelineComposer;
import org.apache.flink.runtime.jobmaster.JobResult;
import org.apache.flink.runtime.minicluster.MiniCluster;

/**
 * Pipelines defined in YAML, parsed by Flink CDC's parser and submitted by its composer to a
 * MiniCluster's REST endpoint, as {@code flink-cdc.sh} submits to a cluster: checkpoints every 100
 * ms unless told otherwise, three restarts allowed.
 */
final class PipelineRuns {

  private PipelineRuns() {}

  /** Submits {@code yaml}, restored from {@code savepoint} unless it is null; returns its job. */
  static JobID submit(MiniCluster cluster, String yaml, String savepoint) throws Exception {
    return submit(cluster, yaml, savepoint, Map.of());
  }

  /** As {@link #submit(MiniCluster, String, String)}, with Flink options over the defaults. */
  static JobID submit(
      MiniCluster cluster, String yaml, String savepoint, Map<String, String> options)
      throws Exception {
    PipelineDef pipeline = new YamlPipelineDefinitionParser().parse(yaml, new Configuration());
    org.apache.flink.configuration.Configuration flink =
        new org.apache.flink.configuration.Configuration();
    var rest = cluster.getRestAddress().get();
    flink.setString("rest.address", rest.getHost());
    flink.setString("rest.port", String.valueOf(rest.getPort()));
    flink.setString("execution.checkpointing.interval", "100ms");
    flink.setString("restart-strategy.type", "fixed-delay");
    flink.setString("restart-strategy.fixed-delay.attempts", "3");
    flink.setString("restart-strategy.fixed-delay.delay", "100ms");
    options.forEach(flink::setString);
    if (savepoint != null) {
      flink.setString("execution.state-recovery.path", savepoint);
    }
    String id =
        FlinkPipelineComposer.ofRemoteCluster(flink, List.of()).compose(pipeline).execute().getId();
    return JobID.fromHexString(id);
  }

  /** The YAML of a {@code delta} sink into Unity Catalog managed tables of catalog {@code main}. */
  static String unityCatalogSink(URI catalog, String token) {
    return unityCatalogSink(catalog, token, "main");
  }

  /** The sink block for managed tables in {@code catalogName} of the catalog at {@code catalog}. */
  static String unityCatalogSink(URI catalog, String token, String catalogName) {
    return String.join(
        "\n",
        "sink:",
        "  type: delta",
        "  catalog.properties.uri: " + catalog,
        "  catalog.properties.token: " + token,
        "  namespace: " + catalogName,
        "");
  }

  /** Submits {@code yaml} and waits for its end. */
  static JobResult run(MiniCluster cluster, String yaml) throws Exception {
    return cluster.requestJobResult(submit(cluster, yaml, null)).get();
  }

  /**
   * Fails the test when {@code job} has ended, with its failure if it failed: whatever the test
   * waits for from it will not come.
   */
  static void assertRunning(MiniCluster cluster, JobID job) throws Exception {
    JobStatus status = cluster.getJobStatus(job).get();
    if (status.isGloballyTerminalState()) {
      assertSucceeded(cluster.requestJobResult(job).get());
      throw new AssertionError("The pipeline ended " + status + " while the test waited on it");
    }
  }

  /** Fails the test with the job's failure, if it failed. */
  static void assertSucceeded(JobResult result) {
    if (result.getSerializedThrowable().isPresent()) {
      throw new AssertionError(
          "The pipeline failed",
          result
              .getSerializedThrowable()
              .get()
              .deserializeError(PipelineRuns.class.getClassLoader()));
    }
  }
}
