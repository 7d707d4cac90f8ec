package io.github.flinkdelta.uc;

import java.io.Serializable;
import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;

/** A credential that prints as {@code ******}: safe in records, logs and exception messages. */
@PublicEvolving
public final class Secret implements Serializable {

  private static final long serialVersionUID = 1L;

  private final String value;

  private Secret(String value) {
    this.value = Objects.requireNonNull(value, "value");
  }

  public static Secret of(String value) {
    return new Secret(value);
  }

  /** The secret itself, for the one place that must send it. */
  public String reveal() {
    return value;
  }

  @Override
  public String toString() {
    return "******";
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Secret secret && secret.value.equals(value);
  }

  @Override
  public int hashCode() {
    return value.hashCode();
  }
}
