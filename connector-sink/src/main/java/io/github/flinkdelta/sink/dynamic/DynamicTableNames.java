/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sink.dynamic;

import io.github.flinkdelta.core.catalog.PathTableLocator;
import io.github.flinkdelta.core.catalog.TableReference;
import io.github.flinkdelta.uc.UnityCatalogConnection;
import io.github.flinkdelta.uc.internal.UnityCatalogClient;
import io.github.flinkdelta.uc.internal.UnityCatalogTableName;
import io.github.flinkdelta.uc.internal.UnityCatalogTableReference;
import java.io.Serializable;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;

/**
 * How a dynamic sink turns a record's table name into a table: a path under a root directory, or a
 * Unity Catalog table whose missing catalog and schema come from a default namespace.
 */
sealed interface DynamicTableNames extends Serializable {

  /** Letters, digits, underscores and dashes: a name part that is safe as a directory name. */
  Pattern NAME_PART = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_-]*");

  /**
   * The table {@code name} stands for.
   *
   * @throws IllegalArgumentException naming the table and the names the sink takes
   */
  TableReference reference(String name);

  /** The name messages give the table by: its full name. */
  String fullName(String name);

  /** Drops table {@code name}: its directory, or its entry in the catalog. */
  void drop(String name, Configuration conf);

  /** Tables at {@code <root>/<part>/<part>}: {@code db.orders} is {@code <root>/db/orders}. */
  record UnderRoot(String root) implements DynamicTableNames {
    @Override
    public TableReference reference(String name) {
      return new PathTableLocator(fullName(name));
    }

    @Override
    public void drop(String name, Configuration conf) {
      new PathTableLocator(fullName(name)).drop(conf);
    }

    @Override
    public String fullName(String name) {
      String under = root.endsWith("/") ? root : root + "/";
      StringBuilder path = new StringBuilder(under);
      String[] parts = name.split("\\.", -1);
      for (int i = 0; i < parts.length; i++) {
        if (!NAME_PART.matcher(parts[i]).matches()) {
          throw new IllegalArgumentException(
              String.format(
                  "Dynamic Delta sink: table name '%s' does not make a path under %s: name each"
                      + " table with parts of letters, digits, '_' and '-', joined by dots (e.g."
                      + " 'db.orders' for %sdb/orders)",
                  name, root, under));
        }
        path.append(i == 0 ? "" : "/").append(parts[i]);
      }
      return path.toString();
    }
  }

  /**
   * Unity Catalog tables: {@code catalog.schema.table}, or {@code schema.table} and {@code table}
   * completed with {@code defaultNamespace} ({@code catalog} or {@code catalog.schema}).
   */
  record InUnityCatalog(UnityCatalogConnection connection, String defaultNamespace)
      implements DynamicTableNames {
    @Override
    public TableReference reference(String name) {
      // A table in a schema the catalog lacks creates the schema, where the principal may.
      return new UnityCatalogTableReference(
          connection, UnityCatalogTableName.parse(fullName(name)), true);
    }

    /** Drops the table from the catalog, which removes a managed table's files in its own time. */
    @Override
    public void drop(String name, Configuration conf) {
      UnityCatalogTableName table = UnityCatalogTableName.parse(fullName(name));
      try (UnityCatalogClient client = new UnityCatalogClient(connection, conf)) {
        client.namespace(table.catalog()).dropTable(table.schema(), table.table());
      }
    }

    @Override
    public String fullName(String name) {
      int parts = name.split("\\.", -1).length;
      int defaults = defaultNamespace == null ? 0 : defaultNamespace.split("\\.", -1).length;
      if (parts == 3) {
        return name;
      }
      if (parts + defaults != 3) {
        throw new IllegalArgumentException(
            String.format(
                "Dynamic Delta sink: table name '%s' names no Unity Catalog table: give"
                    + " 'catalog.schema.table'%s",
                name,
                defaultNamespace == null
                    ? ", or set defaultNamespace(\"catalog.schema\") on the sink's builder"
                    : " or a name that completes the default namespace '"
                        + defaultNamespace
                        + "' to three parts"));
      }
      String full = defaultNamespace.substring(0, nthDot(defaultNamespace, 3 - parts)) + "." + name;
      UnityCatalogTableName.parse(full);
      return full;
    }

    /** The index where the first {@code count} parts of {@code namespace} end. */
    private static int nthDot(String namespace, int count) {
      int end = -1;
      for (int i = 0; i < count; i++) {
        end = namespace.indexOf('.', end + 1);
        if (end < 0) {
          return namespace.length();
        }
      }
      return end;
    }
  }
}
