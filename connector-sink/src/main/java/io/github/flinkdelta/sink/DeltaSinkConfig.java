package io.github.flinkdelta.sink;

import io.github.flinkdelta.core.parquet.FileLayout;
import io.github.flinkdelta.core.parquet.FileWriteOptions;
import io.github.flinkdelta.core.storage.HadoopConfigurations;
import java.io.Serializable;
import java.util.Map;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.hadoop.conf.Configuration;

/**
 * The immutable, resolved configuration a {@link DeltaSink} ships to its operators.
 *
 * @param tablePath the table's root location
 * @param hadoopOptions storage options handed to Hadoop's file systems
 * @param layout how rows are laid out in data files, resolved against the table at build time
 * @param writeOptions how data files are written and rolled
 * @param appId the configured transaction app id, or null for one made at first start
 */
@Internal
public record DeltaSinkConfig(
    String tablePath,
    Map<String, String> hadoopOptions,
    FileLayout layout,
    FileWriteOptions writeOptions,
    String appId)
    implements Serializable {

  public DeltaSinkConfig {
    Objects.requireNonNull(tablePath, "tablePath");
    Objects.requireNonNull(layout, "layout");
    Objects.requireNonNull(writeOptions, "writeOptions");
    hadoopOptions = Map.copyOf(hadoopOptions);
  }

  /** A fresh Hadoop configuration carrying the storage options. */
  public Configuration hadoopConf() {
    return hadoopConf(hadoopOptions);
  }

  static Configuration hadoopConf(Map<String, String> options) {
    return HadoopConfigurations.of(options);
  }

  @Override
  public String toString() {
    // Storage options may hold credentials: name the keys, never the values.
    return "DeltaSinkConfig[table="
        + tablePath
        + ", hadoopOptions="
        + hadoopOptions.keySet()
        + ", writeOptions="
        + writeOptions
        + "]";
  }
}
