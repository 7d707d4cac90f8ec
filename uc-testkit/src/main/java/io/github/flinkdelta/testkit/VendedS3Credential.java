/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.testkit;

import java.time.Instant;
import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;

/**
 * One S3 credential the server vended: what a storage endpoint needs to accept it until it expires,
 * and no longer (see {@link UnityCatalogServer.Builder#onS3CredentialVended}).
 *
 * @param accessKeyId the access key id
 * @param secretAccessKey the secret key
 * @param sessionToken the session token, or null if none was vended
 * @param expiresAt the expiry the server announced with it
 * @param location the storage location it was vended for
 */
@PublicEvolving
public record VendedS3Credential(
    String accessKeyId,
    String secretAccessKey,
    String sessionToken,
    Instant expiresAt,
    String location) {

  public VendedS3Credential {
    Objects.requireNonNull(accessKeyId, "accessKeyId");
    Objects.requireNonNull(secretAccessKey, "secretAccessKey");
    Objects.requireNonNull(expiresAt, "expiresAt");
  }

  @Override
  public String toString() {
    return "VendedS3Credential[accessKeyId="
        + accessKeyId
        + ", expiresAt="
        + expiresAt
        + ", location="
        + location
        + "]";
  }
}
