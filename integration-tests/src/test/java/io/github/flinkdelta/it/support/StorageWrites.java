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
