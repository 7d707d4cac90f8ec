/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.chaos;

import io.github.flinkdelta.it.support.EnforcedS3;
import io.github.flinkdelta.it.support.S3FaultInterceptor;
import io.github.flinkdelta.s3testkit.CredentialEnforcingProxy;
import io.github.flinkdelta.testkit.UnityCatalogServer;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Where chaos runs keep their tables: S3 behind the expiry-enforcing proxy (bucket {@code chaos}),
 * and for each run a catalog that puts its managed tables under the run's own prefix and vends a
 * new key on every request, each living 4 s.
 */
final class ChaosStorage implements AutoCloseable {

  private static final String BUCKET = "chaos";

  private final EnforcedS3 s3;

  private ChaosStorage(EnforcedS3 s3) {
    this.s3 = s3;
  }

  static ChaosStorage start(Path directory) {
    return new ChaosStorage(EnforcedS3.start(directory, BUCKET));
  }

  /** A started catalog whose managed tables live under {@code prefix}. */
  UnityCatalogServer catalog(String prefix, String token) throws IOException {
    return s3.vendDistinctKeys(
            UnityCatalogServer.builder()
                .storageRoot(URI.create("s3://" + BUCKET + "/" + prefix))
                .token(token),
            Duration.ofSeconds(4))
        .build()
        .start();
  }

  /** How many keys have been vended so far: where the keys of a run starting now begin. */
  int keysVended() {
    return s3.vended().size();
  }

  /** The figures of the keys vended since {@code first}. */
  List<CredentialEnforcingProxy.KeyStats> keysSince(int first) {
    return s3.statsSince(first);
  }

  /** Requests the proxy let through with a key past its expiry; always 0 unless it is broken. */
  long acceptedAfterExpiry() {
    return s3.gate().acceptedAfterExpiry();
  }

  /**
   * S3 behind the expiry-enforcing proxy, fast retries so that a burst of faults can outlast them,
   * the fault hook; keys renewed 3 s before their 4 s expire, so that a request signed just before
   * a renewal has 3 s to arrive.
   */
  Map<String, String> storageOptions() {
    return Map.ofEntries(
        Map.entry("fs.s3a.endpoint", s3.endpoint().toString()),
        Map.entry("fs.s3a.endpoint.region", "us-east-1"),
        Map.entry("fs.s3a.path.style.access", "true"),
        Map.entry("fs.s3a.connection.ssl.enabled", "false"),
        Map.entry("fs.s3a.audit.execution.interceptors", S3FaultInterceptor.class.getName()),
        Map.entry("fs.s3a.attempts.maximum", "1"),
        Map.entry("fs.s3a.retry.limit", "2"),
        Map.entry("fs.s3a.retry.interval", "20ms"),
        Map.entry("fs.s3a.retry.throttle.limit", "2"),
        Map.entry("fs.s3a.retry.throttle.interval", "20ms"),
        Map.entry("fs.unitycatalog.renewal.leadTimeMillis", "3000"));
  }

  /**
   * Versions 0..latest of the table under {@code prefix} with neither a published nor a staged
   * commit file.
   */
  List<Long> missingVersions(String prefix, long latest) throws IOException {
    Path log;
    try (Stream<Path> files = Files.walk(s3.bucketDirectory(BUCKET).resolve(prefix))) {
      log =
          files
              .filter(p -> p.getFileName().toString().equals("_delta_log"))
              .findFirst()
              .orElseThrow();
    }
    return missingVersionsIn(log, latest);
  }

  /**
   * Versions 0..latest of the table at {@code location} (an {@code s3://chaos/...} URI, as the
   * catalog gives it) with neither a published nor a staged commit file.
   */
  List<Long> missingVersionsAt(String location, long latest) throws IOException {
    String path = URI.create(location).getPath().replaceFirst("^/", "");
    return missingVersionsIn(
        s3.bucketDirectory(BUCKET).resolve(path).resolve("_delta_log"), latest);
  }

  private static List<Long> missingVersionsIn(Path log, long latest) throws IOException {
    List<String> names;
    try (Stream<Path> files = Files.walk(log)) {
      names = files.map(p -> p.getFileName().toString()).toList();
    }
    List<Long> missing = new ArrayList<>();
    for (long v = 0; v <= latest; v++) {
      String version = String.format("%020d", v);
      if (names.stream()
          .noneMatch(
              // Published as N.json, or still staged as _staged_commits/N.<uuid>.json.
              n -> n.equals(version + ".json") || n.matches(version + "\\.[0-9a-f-]{36}\\.json"))) {
        missing.add(v);
      }
    }
    return missing;
  }

  /**
   * The versions of the table under {@code prefix}, published or staged, that hold a compaction of
   * the sink: actions with {@code dataChange = false}, which only a compaction writes.
   */
  long compactions(String prefix) throws IOException {
    try (Stream<Path> files = Files.walk(s3.bucketDirectory(BUCKET).resolve(prefix))) {
      return files
          .filter(p -> p.toString().contains("_delta_log"))
          .filter(p -> p.getFileName().toString().matches("\\d{20}(\\.[0-9a-f-]{36})?\\.json"))
          .filter(
              p -> {
                try {
                  // An append sink's compaction commits under its own app id; an upsert sink's
                  // writers' rewrites land in the stream's commits: both add with dataChange false.
                  return Files.readString(p).contains("\"dataChange\":false");
                } catch (IOException e) {
                  throw new java.io.UncheckedIOException(e);
                }
              })
          .map(p -> p.getFileName().toString().substring(0, 20))
          .distinct()
          .count();
    }
  }

  /**
   * The deletion-vector files ({@code deletion_vector_<uuid>.bin}) of the table under {@code
   * prefix}.
   */
  long deletionVectorFiles(String prefix) throws IOException {
    try (Stream<Path> files = Files.walk(s3.bucketDirectory(BUCKET).resolve(prefix))) {
      return files
          .filter(p -> p.getFileName().toString().matches("deletion_vector_.*\\.bin"))
          .count();
    }
  }

  @Override
  public void close() {
    s3.close();
  }
}
