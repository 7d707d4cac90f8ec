/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.storage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.apache.flink.annotation.Internal;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * File systems of object stores, shared per set of storage options instead of Hadoop's per scheme,
 * authority and user. A scope is the set of options a table was configured with; its file systems
 * are created on first use (one per scheme and authority) and closed when the last {@link #lease}
 * of the scope is closed, that is when the last operator using those options closes.
 */
@Internal
public final class StorageScopes {

  private static final Logger LOG = LoggerFactory.getLogger(StorageScopes.class);

  /** The configuration key naming a configuration's scope. */
  static final String SCOPE_KEY = "flinkdelta.storage.scope";

  /** Where the implementation the scope's file systems are made of is kept, per scheme. */
  static final String DELEGATE_IMPL_KEY = "flinkdelta.storage.%s.impl";

  /** Object-store schemes whose file systems are scoped; local and HDFS ones are not. */
  static final List<String> SCHEMES =
      List.of("s3a", "s3", "s3n", "gs", "abfs", "abfss", "wasb", "wasbs", "oss");

  /** Scopes need only be equal within this JVM; the salt keeps options from being guessed. */
  private static final byte[] SALT = new java.security.SecureRandom().generateSeed(16);

  private static final Map<Key, FileSystem> FILE_SYSTEMS = new HashMap<>();
  private static final Map<String, Integer> LEASES = new HashMap<>();

  private StorageScopes() {}

  /** Makes {@code conf} scoped to {@code options}: called once, as its options are set. */
  static void scope(Configuration conf, Map<String, String> options) {
    for (String scheme : SCHEMES) {
      String implKey = "fs." + scheme + ".impl";
      // The user's choice, else Hadoop's default (core-default.xml names some schemes' classes).
      String impl = conf.get(implKey);
      if (impl != null) {
        conf.set(String.format(DELEGATE_IMPL_KEY, scheme), impl);
      }
      conf.set(implKey, ScopedFileSystem.class.getName());
      conf.setBoolean("fs." + scheme + ".impl.disable.cache", true);
    }
    conf.set(SCOPE_KEY, fingerprint(options));
  }

  /**
   * A copy of {@code conf} with Hadoop's own file systems for the scoped schemes, for a layer that
   * scopes file systems itself (Unity Catalog's credential-scoped file system keys them by vended
   * credential and takes the implementation to wrap from the configuration).
   */
  public static Configuration unscoped(Configuration conf) {
    Configuration plain = new Configuration(conf);
    for (String scheme : SCHEMES) {
      String implKey = "fs." + scheme + ".impl";
      String delegateKey = String.format(DELEGATE_IMPL_KEY, scheme);
      String impl = conf.get(delegateKey);
      if (impl != null) {
        plain.set(implKey, impl);
      } else {
        plain.unset(implKey);
      }
      plain.unset(delegateKey);
      plain.unset("fs." + scheme + ".impl.disable.cache");
    }
    plain.unset(SCOPE_KEY);
    return plain;
  }

  /**
   * Holds the scope of {@code conf} open until the lease is closed; without a scope (a
   * configuration not made by {@link HadoopConfigurations}) the lease holds nothing.
   */
  public static Lease lease(Configuration conf) {
    String scope = conf.get(SCOPE_KEY);
    if (scope == null) {
      return () -> {};
    }
    synchronized (StorageScopes.class) {
      LEASES.merge(scope, 1, Integer::sum);
    }
    return new Lease() {
      private boolean closed;

      @Override
      public void close() {
        if (!closed) {
          closed = true;
          release(scope);
        }
      }
    };
  }

  /** The scope's file system for {@code uri}'s scheme and authority, created on first use. */
  static FileSystem fileSystem(URI uri, Configuration conf) throws IOException {
    String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
    Key key = new Key(conf.get(SCOPE_KEY, ""), scheme, Objects.toString(uri.getAuthority(), ""));
    synchronized (StorageScopes.class) {
      FileSystem fs = FILE_SYSTEMS.get(key);
      if (fs == null) {
        fs = create(uri, conf, scheme);
        FILE_SYSTEMS.put(key, fs);
      }
      return fs;
    }
  }

  /** The file systems open now, for tests. */
  static synchronized int openFileSystems() {
    return FILE_SYSTEMS.size();
  }

  private static FileSystem create(URI uri, Configuration conf, String scheme) throws IOException {
    Configuration delegate = new Configuration(conf);
    String implKey = "fs." + scheme + ".impl";
    String impl = conf.get(String.format(DELEGATE_IMPL_KEY, scheme));
    if (impl != null) {
      delegate.set(implKey, impl);
    } else {
      // Hadoop then finds the scheme's file system through its service loader.
      delegate.unset(implKey);
    }
    return FileSystem.newInstance(uri, delegate);
  }

  private static void release(String scope) {
    List<FileSystem> closing = new ArrayList<>();
    synchronized (StorageScopes.class) {
      int left = LEASES.merge(scope, -1, Integer::sum);
      if (left > 0) {
        return;
      }
      LEASES.remove(scope);
      FILE_SYSTEMS
          .entrySet()
          .removeIf(
              entry -> {
                if (entry.getKey().scope().equals(scope)) {
                  closing.add(entry.getValue());
                  return true;
                }
                return false;
              });
    }
    for (FileSystem fs : closing) {
      try {
        fs.close();
      } catch (IOException | RuntimeException e) {
        LOG.warn("Could not close the file system of {}", fs.getUri(), e);
      }
    }
  }

  /** A digest of the options; equal options give equal scopes, and no option can be read back. */
  private static String fingerprint(Map<String, String> options) {
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      digest.update(SALT);
      for (Map.Entry<String, String> option : new TreeMap<>(options).entrySet()) {
        digest.update(option.getKey().getBytes(StandardCharsets.UTF_8));
        digest.update((byte) 0);
        digest.update(option.getValue().getBytes(StandardCharsets.UTF_8));
        digest.update((byte) 0);
      }
      return HexFormat.of().formatHex(digest.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new UncheckedIOException(new IOException(e));
    }
  }

  /** Holds a scope's file systems open. */
  @FunctionalInterface
  public interface Lease extends AutoCloseable {
    @Override
    void close();
  }

  private record Key(String scope, String scheme, String authority) {}
}
