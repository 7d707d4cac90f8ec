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
