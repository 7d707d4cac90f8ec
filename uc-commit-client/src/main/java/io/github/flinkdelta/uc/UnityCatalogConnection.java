package io.github.flinkdelta.uc;

import java.io.Serializable;
import java.net.URI;
import java.util.Objects;

/**
 * How to reach a Unity Catalog server.
 *
 * @param endpoint the server's base URI, e.g. {@code https://uc.example.com}; the API lives below
 *     {@code /api/2.1/unity-catalog}
 * @param token the bearer token sent with every call
 */
public record UnityCatalogConnection(URI endpoint, Secret token) implements Serializable {
  public UnityCatalogConnection {
    Objects.requireNonNull(endpoint, "endpoint");
    Objects.requireNonNull(token, "token");
  }
}
