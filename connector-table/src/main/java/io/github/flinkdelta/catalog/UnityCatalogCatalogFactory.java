/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.catalog;

import io.github.flinkdelta.common.HadoopOptions;
import io.github.flinkdelta.common.UnityCatalogOptions;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import java.util.HashSet;
import java.util.Set;
import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.api.ValidationException;
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
    return Set.of(UnityCatalogOptions.URI);
  }

  @Override
  public Set<ConfigOption<?>> optionalOptions() {
    Set<ConfigOption<?>> options = new HashSet<>(UnityCatalogOptions.ALL);
    options.remove(UnityCatalogOptions.URI);
    options.add(UnityCatalogCatalogOptions.CATALOG);
    options.add(UnityCatalogCatalogOptions.DEFAULT_DATABASE);
    return options;
  }

  @Override
  public Catalog createCatalog(Context context) {
    FactoryUtil.CatalogFactoryHelper helper = FactoryUtil.createCatalogFactoryHelper(this, context);
    helper.validateExcept(HadoopOptions.PREFIX);
    ReadableConfig options = helper.getOptions();
    UnityCatalogConnection connection;
    try {
      connection = UnityCatalogOptions.connection(options, "Catalog " + context.getName());
    } catch (IllegalArgumentException e) {
      throw new ValidationException(e.getMessage(), e);
    }
    return new UnityCatalogCatalog(
        context.getName(),
        options.getOptional(UnityCatalogCatalogOptions.CATALOG).orElse(context.getName()),
        options.get(UnityCatalogCatalogOptions.DEFAULT_DATABASE),
        connection,
        HadoopOptions.from("Catalog " + context.getName(), context.getOptions()));
  }
}
