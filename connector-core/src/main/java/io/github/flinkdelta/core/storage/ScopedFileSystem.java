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
package io.github.flinkdelta.core.storage;

import java.io.IOException;
import java.net.URI;
import org.apache.flink.annotation.Internal;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FilterFileSystem;

/**
 * The file system of an object-store scheme as a table's configuration sees it: a thin view of a
 * file system shared only by configurations of the same storage options ({@link StorageScopes}).
 *
 * <p>Hadoop caches file systems by scheme, authority and user, not by configuration, so two tables
 * of one task manager on the same bucket with different endpoints or keys would otherwise share
 * whichever file system was created first. {@link HadoopConfigurations} registers this class for
 * those schemes with Hadoop's cache off; each lookup then makes one of these views, which costs an
 * object, and the real file system behind it comes from the scope's own cache. Closing a view does
 * not close the shared file system: the last {@link StorageScopes#lease lease} of the scope does.
 */
@Internal
public final class ScopedFileSystem extends FilterFileSystem {

  @Override
  public void initialize(URI name, Configuration conf) throws IOException {
    this.fs = StorageScopes.fileSystem(name, conf);
    this.statistics = getStatistics(name.getScheme(), getClass());
    setConf(conf);
  }

  @Override
  public URI getUri() {
    return fs.getUri();
  }

  @Override
  public String getScheme() {
    return fs.getScheme();
  }

  /** The shared file system stays open for the other views of its scope. */
  @Override
  public void close() {}
}
