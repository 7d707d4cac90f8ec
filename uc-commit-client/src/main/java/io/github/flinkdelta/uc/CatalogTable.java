package io.github.flinkdelta.uc;

import java.io.Serializable;
import java.util.Objects;

/**
 * A table as the catalog knows it.
 *
 * @param name its three-part name
 * @param id the catalog's table id
 * @param location the table's storage location
 * @param managed whether the catalog ratifies its commits (a managed table)
 */
public record CatalogTable(UcTableName name, String id, String location, boolean managed)
    implements Serializable {
  public CatalogTable {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(location, "location");
  }
}
