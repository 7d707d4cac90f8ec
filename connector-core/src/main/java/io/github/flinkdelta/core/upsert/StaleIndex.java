package io.github.flinkdelta.core.upsert;

import java.util.Map;
import java.util.Optional;
import org.apache.flink.annotation.Internal;

/**
 * The mark an upsert sink leaves in its table when a commit had to settle deletes by key because
 * another writer moved or deleted rows its key index pointed at: the key indexes of the sink with
 * {@code appId} built before checkpoint {@code checkpointId} was committed are stale, and its
 * writers rebuild theirs from the table on their next start. Kept in table property {@link
 * #PROPERTY} as {@code <checkpointId>:<appId>}.
 */
@Internal
public record StaleIndex(String appId, long checkpointId) {

  /** The table property that holds the mark. */
  public static final String PROPERTY = "flink.upsert.stale-index";

  /** The property that records this mark. */
  public Map<String, String> asProperty() {
    return Map.of(PROPERTY, checkpointId + ":" + appId);
  }

  /** The mark in table {@code properties}, if any; a value this class did not write is ignored. */
  public static Optional<StaleIndex> in(Map<String, String> properties) {
    String value = properties.get(PROPERTY);
    if (value == null) {
      return Optional.empty();
    }
    int colon = value.indexOf(':');
    try {
      return Optional.of(
          new StaleIndex(value.substring(colon + 1), Long.parseLong(value.substring(0, colon))));
    } catch (NumberFormatException | StringIndexOutOfBoundsException e) {
      return Optional.empty();
    }
  }
}
