/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.flinkdelta.uc.Secret;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.images.builder.Transferable;

/**
 * The contract against the Unity Catalog OSS server image with MinIO as its S3 storage, both
 * started by Testcontainers. Opt-in ({@code ./mvnw -B verify -Puc-oss-docker}); skipped, saying
 * why, where no Docker engine answers. Images and the server's settings can be changed with the
 * system properties {@code uc.image}, {@code minio.image}.
 *
 * <p>This class has never run on the machine the project is built on (no Docker there); it compiles
 * in every build of the profile, and the embedded-server implementation of the same contract runs
 * in the default suite.
 */
class UnityCatalogContractOnDockerITCase extends UnityCatalogContract {

  private static final String ACCESS_KEY = "minio-access";
  private static final String SECRET_KEY = "minio-secret-key";
  private static final String BUCKET = "lake";

  private static Network network;
  private static GenericContainer<?> minio;
  private static GenericContainer<?> unityCatalog;

  @BeforeAll
  static void startContainers() {
    boolean docker;
    try {
      docker = DockerClientFactory.instance().isDockerAvailable();
    } catch (RuntimeException e) {
      docker = false;
    }
    String reason =
        "Skipped: no Docker engine answers here, so the Unity Catalog OSS and MinIO images cannot"
            + " start. The same contract runs against the embedded server in the default suite.";
    if (!docker) {
      System.err.println(UnityCatalogContractOnDockerITCase.class.getSimpleName() + ": " + reason);
    }
    assumeTrue(docker, reason);

    network = Network.newNetwork();
    minio =
        new GenericContainer<>(System.getProperty("minio.image", "minio/minio:latest"))
            .withNetwork(network)
            .withNetworkAliases("minio")
            .withEnv("MINIO_ROOT_USER", ACCESS_KEY)
            .withEnv("MINIO_ROOT_PASSWORD", SECRET_KEY)
            .withCreateContainerCmdModifier(cmd -> cmd.withEntrypoint("sh"))
            .withCommand("-c", "mkdir -p /data/" + BUCKET + " && minio server /data")
            .withExposedPorts(9000)
            .waitingFor(Wait.forHttp("/minio/health/live").forPort(9000));
    minio.start();

    // Unity Catalog OSS vends these keys for tables under s3://lake and creates managed tables
    // under its storage root there.
    String serverProperties =
        String.join(
            "\n",
            "server.env=dev",
            "storage-root.tables=s3://" + BUCKET + "/managed",
            "s3.bucketPath.0=s3://" + BUCKET,
            "s3.region.0=us-east-1",
            "s3.accessKey.0=" + ACCESS_KEY,
            "s3.secretKey.0=" + SECRET_KEY,
            "s3.sessionToken.0=",
            "");
    unityCatalog =
        new GenericContainer<>(System.getProperty("uc.image", "unitycatalog/unitycatalog:v0.6.0"))
            .withNetwork(network)
            .withCopyToContainer(
                Transferable.of(serverProperties), "/home/unitycatalog/etc/conf/server.properties")
            .withExposedPorts(8080)
            .waitingFor(
                Wait.forHttp("/api/2.1/unity-catalog/catalogs")
                    .forPort(8080)
                    .withStartupTimeout(Duration.ofMinutes(3)));
    unityCatalog.start();
  }

  @AfterAll
  static void stopContainers() {
    if (unityCatalog != null) {
      unityCatalog.stop();
    }
    if (minio != null) {
      minio.stop();
    }
    if (network != null) {
      network.close();
    }
  }

  @Override
  UnityCatalogConnection connection() {
    return new UnityCatalogConnection(
        URI.create("http://" + unityCatalog.getHost() + ":" + unityCatalog.getMappedPort(8080)),
        Secret.of("not-used-in-dev-mode"));
  }

  @Override
  String catalog() {
    return "unity";
  }

  @Override
  String schema() {
    return "default";
  }

  @Override
  Map<String, String> storageOptions() {
    return Map.of(
        "fs.s3a.endpoint", "http://" + minio.getHost() + ":" + minio.getMappedPort(9000),
        "fs.s3a.endpoint.region", "us-east-1",
        "fs.s3a.path.style.access", "true",
        "fs.s3a.connection.ssl.enabled", "false");
  }
}
