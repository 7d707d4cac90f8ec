package io.github.flinkdelta.sink.catalog;

import io.github.flinkdelta.sink.table.DeltaDynamicTableSink;
import io.github.flinkdelta.sink.table.DeltaDynamicTableSinkFactory;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.ObjectIdentifier;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.factories.DynamicTableSinkFactory;
import org.apache.flink.table.types.logical.RowType;

/**
 * Makes the sink of a table in a {@link UnityCatalogCatalog}: the catalog's connection, the table's
 * three-part name, and the write options among the table's properties and the statement's {@code
 * OPTIONS} hints. Keys under {@code sink.} must be write options; other keys are table properties
 * and do not concern the sink.
 */
@Internal
final class CatalogTableSinkFactory implements DynamicTableSinkFactory {

  private static final String SINK_PREFIX = "sink.";

  private final UnityCatalogConnection connection;
  private final String ucCatalog;
  private final Map<String, String> hadoopOptions;

  CatalogTableSinkFactory(
      UnityCatalogConnection connection, String ucCatalog, Map<String, String> hadoopOptions) {
    this.connection = connection;
    this.ucCatalog = ucCatalog;
    this.hadoopOptions = Map.copyOf(hadoopOptions);
  }

  @Override
  public String factoryIdentifier() {
    return UnityCatalogCatalogFactory.IDENTIFIER;
  }

  @Override
  public Set<ConfigOption<?>> requiredOptions() {
    return Set.of();
  }

  @Override
  public Set<ConfigOption<?>> optionalOptions() {
    return DeltaDynamicTableSinkFactory.WRITE_OPTIONS;
  }

  @Override
  public DynamicTableSink createDynamicTableSink(Context context) {
    ObjectIdentifier id = context.getObjectIdentifier();
    String table = ucCatalog + "." + id.getDatabaseName() + "." + id.getObjectName();
    Map<String, String> sinkOptions = new HashMap<>();
    Set<String> known = new TreeSet<>();
    DeltaDynamicTableSinkFactory.WRITE_OPTIONS.forEach(o -> known.add(o.key()));
    context
        .getCatalogTable()
        .getOptions()
        .forEach(
            (key, value) -> {
              if (key.startsWith(SINK_PREFIX)) {
                if (!known.contains(key)) {
                  throw new ValidationException(
                      String.format(
                          "Table %s has an unknown write option '%s'. Write options: %s",
                          table, key, String.join(", ", known)));
                }
                sinkOptions.put(key, value);
              }
            });
    RowType rowType = (RowType) context.getPhysicalRowDataType().getLogicalType();
    List<String> partitions = context.getCatalogTable().getPartitionKeys();
    return new DeltaDynamicTableSink(
        table,
        Configuration.fromMap(sinkOptions),
        rowType,
        partitions,
        DeltaDynamicTableSinkFactory.primaryKey(context),
        builder -> builder.unityCatalog(connection).tableName(table).hadoopOptions(hadoopOptions));
  }
}
