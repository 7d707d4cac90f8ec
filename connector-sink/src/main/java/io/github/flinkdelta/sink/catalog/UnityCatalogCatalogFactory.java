package io.github.flinkdelta.sink.catalog;

import static io.github.flinkdelta.sink.catalog.UnityCatalogCatalogOptions.CATALOG;
import static io.github.flinkdelta.sink.catalog.UnityCatalogCatalogOptions.DEFAULT_DATABASE;
import static io.github.flinkdelta.sink.catalog.UnityCatalogCatalogOptions.OAUTH_CLIENT_ID;
import static io.github.flinkdelta.sink.catalog.UnityCatalogCatalogOptions.OAUTH_CLIENT_SECRET;
import static io.github.flinkdelta.sink.catalog.UnityCatalogCatalogOptions.OAUTH_SCOPE;
import static io.github.flinkdelta.sink.catalog.UnityCatalogCatalogOptions.OAUTH_TOKEN_URI;
import static io.github.flinkdelta.sink.catalog.UnityCatalogCatalogOptions.REQUEST_TIMEOUT;
import static io.github.flinkdelta.sink.catalog.UnityCatalogCatalogOptions.TOKEN;
import static io.github.flinkdelta.sink.catalog.UnityCatalogCatalogOptions.URI;

import io.github.flinkdelta.sink.table.HadoopOptions;
import io.github.flinkdelta.sink.table.UnityCatalogConnections;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import java.util.Set;
import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.catalog.Catalog;
import org.apache.flink.table.factories.CatalogFactory;
import org.apache.flink.table.factories.FactoryUtil;

/** {@code 'type' = 'unitycatalog'}: a Flink catalog over one Unity Catalog catalog. */
@Internal
public final class UnityCatalogCatalogFactory implements CatalogFactory {

  public static final String IDENTIFIER = "unitycatalog";

  @Override
  public String factoryIdentifier() {
    return IDENTIFIER;
  }

  @Override
  public Set<ConfigOption<?>> requiredOptions() {
    return Set.of(URI);
  }

  @Override
  public Set<ConfigOption<?>> optionalOptions() {
    return Set.of(
        TOKEN,
        OAUTH_TOKEN_URI,
        OAUTH_CLIENT_ID,
        OAUTH_CLIENT_SECRET,
        OAUTH_SCOPE,
        REQUEST_TIMEOUT,
        CATALOG,
        DEFAULT_DATABASE);
  }

  @Override
  public Catalog createCatalog(Context context) {
    FactoryUtil.CatalogFactoryHelper helper = FactoryUtil.createCatalogFactoryHelper(this, context);
    helper.validateExcept(HadoopOptions.PREFIX);
    ReadableConfig options = helper.getOptions();
    String owner = "Catalog " + context.getName();
    UnityCatalogConnection connection =
        UnityCatalogConnections.of(
                owner,
                "",
                options.get(URI),
                options.getOptional(TOKEN).orElse(null),
                options.getOptional(OAUTH_TOKEN_URI).orElse(null),
                options.getOptional(OAUTH_CLIENT_ID).orElse(null),
                options.getOptional(OAUTH_CLIENT_SECRET).orElse(null),
                options.getOptional(OAUTH_SCOPE).orElse(null))
            .withRequestTimeout(options.get(REQUEST_TIMEOUT));
    return new DeltaUnityCatalog(
        context.getName(),
        options.getOptional(CATALOG).orElse(context.getName()),
        options.get(DEFAULT_DATABASE),
        connection,
        HadoopOptions.from(context.getOptions()));
  }
}
