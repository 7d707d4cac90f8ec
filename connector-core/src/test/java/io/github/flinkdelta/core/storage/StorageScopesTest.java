/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.util.Map;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FilterFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.junit.jupiter.api.Test;

/**
 * Tables on one bucket with different storage options get file systems of their own options, not
 * whichever Hadoop created first for the bucket; equal options share one; the last lease of the
 * options closes it.
 */
class StorageScopesTest {

  private static final Path TABLE = new Path("s3a://bucket/table");

  @Test
  void tablesOnOneBucketWithDifferentOptionsGetTheirOwnFileSystems() throws IOException {
    Configuration first = conf("http://first:9000", "key-1");
    Configuration second = conf("http://second:9000", "key-2");

    RecordingFileSystem one = delegate(TABLE.getFileSystem(first));
    RecordingFileSystem two = delegate(TABLE.getFileSystem(second));

    assertThat(one.endpoint).isEqualTo("http://first:9000");
    assertThat(one.accessKey).isEqualTo("key-1");
    assertThat(two.endpoint).isEqualTo("http://second:9000");
    assertThat(two.accessKey).isEqualTo("key-2");
  }

  @Test
  void equalOptionsShareOneFileSystemPerBucket() throws IOException {
    String endpoint = "http://shared-" + UUID.randomUUID();
    Configuration conf = conf(endpoint, "key");

    FileSystem first = delegate(TABLE.getFileSystem(conf));
    assertThat(delegate(new Path("s3a://bucket/other").getFileSystem(conf(endpoint, "key"))))
        .isSameAs(first);
    assertThat(delegate(new Path("s3a://another-bucket/t").getFileSystem(conf))).isNotSameAs(first);
  }

  @Test
  void theLastLeaseOfTheOptionsClosesTheirFileSystems() throws IOException {
    Configuration conf = conf("http://leased-" + UUID.randomUUID(), "key");
    StorageScopes.Lease writer = StorageScopes.lease(conf);
    StorageScopes.Lease committer = StorageScopes.lease(conf);
    RecordingFileSystem fs = delegate(TABLE.getFileSystem(conf));
    // Closing what Hadoop hands out does not close the file system the other users share.
    TABLE.getFileSystem(conf).close();
    writer.close();
    writer.close();
    assertThat(fs.closed).isFalse();

    committer.close();
    assertThat(fs.closed).isTrue();
    RecordingFileSystem reopened = delegate(TABLE.getFileSystem(conf));
    assertThat(reopened).isNotSameAs(fs);
    assertThat(reopened.closed).isFalse();
  }

  @Test
  void localFilesAreNotScoped() throws IOException {
    Configuration conf = HadoopConfigurations.of(Map.of());
    assertThat(new Path("file:///tmp").getFileSystem(conf))
        .isInstanceOf(ForklessLocalFileSystem.class);
  }

  private static Configuration conf(String endpoint, String accessKey) {
    return HadoopConfigurations.of(
        Map.of(
            "fs.s3a.impl", RecordingFileSystem.class.getName(),
            "fs.s3a.endpoint", endpoint,
            "fs.s3a.access.key", accessKey));
  }

  private static RecordingFileSystem delegate(FileSystem fs) {
    assertThat(fs).isInstanceOf(ScopedFileSystem.class);
    return (RecordingFileSystem) ((FilterFileSystem) fs).getRawFileSystem();
  }

  /** Stands in for S3A: remembers the options it was made with, and whether it was closed. */
  public static final class RecordingFileSystem extends RawLocalFileSystem {
    private URI uri;
    String endpoint;
    String accessKey;
    volatile boolean closed;

    @Override
    public void initialize(URI name, Configuration conf) throws IOException {
      super.initialize(name, conf);
      uri = name;
      endpoint = conf.get("fs.s3a.endpoint");
      accessKey = conf.get("fs.s3a.access.key");
    }

    @Override
    public URI getUri() {
      // RawLocalFileSystem's constructor asks before initialize.
      return uri != null ? uri : super.getUri();
    }

    @Override
    public String getScheme() {
      return "s3a";
    }

    @Override
    public void close() throws IOException {
      closed = true;
      super.close();
    }
  }
}
