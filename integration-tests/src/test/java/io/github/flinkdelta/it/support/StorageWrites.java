/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.support;

import io.github.flinkdelta.s3testkit.CredentialEnforcingProxy;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The writes a Delta sink sends to S3, sorted by the part of the sink that makes them, from the
 * requests a {@link CredentialEnforcingProxy} accepted: data files (writers), staged commits
 * (committer), published versions (publish) and Delta checkpoints (the post-commit checkpoint).
 */
public final class StorageWrites {

  public static final String DATA_FILES = "data files";
  public static final String STAGED_COMMITS = "staged commits";
  public static final String PUBLISHED_VERSIONS = "published versions";
  public static final String DELTA_CHECKPOINTS = "Delta checkpoints";
  public static final List<String> KINDS =
      List.of(DATA_FILES, STAGED_COMMITS, PUBLISHED_VERSIONS, DELTA_CHECKPOINTS);

  private static final Pattern PUBLISHED = Pattern.compile(".*/_delta_log/\\d{20}\\.json");

  private StorageWrites() {}

  /**
   * How many writes of each kind under {@code pathPrefix} (e.g. {@code /bucket/prefix/}) the proxy
   * accepted after {@code instant}; every kind is a key, with 0 if none.
   */
  public static Map<String, Long> after(
      CredentialEnforcingProxy gate, String pathPrefix, Instant instant) {
    Map<String, Long> counts = new LinkedHashMap<>();
    KINDS.forEach(kind -> counts.put(kind, 0L));
    for (CredentialEnforcingProxy.AcceptedRequest request : gate.acceptedRequests()) {
      boolean write = request.method().equals("PUT") || request.method().equals("POST");
      if (write && request.path().startsWith(pathPrefix) && request.at().isAfter(instant)) {
        String kind = kind(request.path());
        if (kind != null) {
          counts.merge(kind, 1L, Long::sum);
        }
      }
    }
    return counts;
  }

  /** The kind of object at {@code path}, or null for another (e.g. {@code _last_checkpoint}). */
  public static String kind(String path) {
    if (path.contains("/_delta_log/_staged_commits/")) {
      return STAGED_COMMITS;
    }
    if (path.contains("/_delta_log/")
        && (path.contains(".checkpoint") || path.contains("/_delta_log/_sidecars/"))) {
      return DELTA_CHECKPOINTS;
    }
    if (PUBLISHED.matcher(path).matches()) {
      return PUBLISHED_VERSIONS;
    }
    if (!path.contains("/_delta_log/") && path.endsWith(".parquet")) {
      return DATA_FILES;
    }
    return null;
  }
}
