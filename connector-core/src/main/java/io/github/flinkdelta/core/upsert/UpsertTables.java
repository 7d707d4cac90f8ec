package io.github.flinkdelta.core.upsert;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.annotation.Internal;

/**
 * Which tables an upsert sink can write: its commits remove files and re-add them with deletion
 * vectors, which some table features forbid or which Kernel 4.4 cannot commit.
 */
@Internal
public final class UpsertTables {

  /** The property that allows writers to write deletion vectors. */
  public static final String DELETION_VECTORS = "delta.enableDeletionVectors";

  private static final String CHANGE_DATA_FEED = "delta.enableChangeDataFeed";
  private static final String APPEND_ONLY = "delta.appendOnly";
  private static final List<String> ICEBERG_COMPAT =
      List.of("delta.enableIcebergCompatV2", "delta.enableIcebergCompatV3");

  private UpsertTables() {}

  /** What stands in the way of upserts into a table of {@code properties}; empty when nothing. */
  public static List<String> problems(String tableName, Map<String, String> properties) {
    List<String> problems = new ArrayList<>();
    if (on(properties, CHANGE_DATA_FEED)) {
      problems.add(
          String.format(
              "Delta table %s has the change data feed on ('%s' = 'true'): Delta Kernel 4.4 cannot"
                  + " commit the change files an update or delete must write there, so the sink"
                  + " cannot take upserts into it. Turn the change data feed off, or write to a"
                  + " table without it.",
              tableName, CHANGE_DATA_FEED));
    }
    if (on(properties, APPEND_ONLY)) {
      problems.add(
          String.format(
              "Delta table %s is append-only ('%s' = 'true'): updates and deletes are not allowed"
                  + " in it. Write it without a primary key, or unset the property.",
              tableName, APPEND_ONLY));
    }
    for (String compat : ICEBERG_COMPAT) {
      if (on(properties, compat)) {
        problems.add(
            String.format(
                "Delta table %s has '%s' = 'true', which forbids deletion vectors: the sink"
                    + " cannot take upserts into it.",
                tableName, compat));
      }
    }
    if ("false".equalsIgnoreCase(properties.get(DELETION_VECTORS))) {
      problems.add(
          String.format(
              "Delta table %s has deletion vectors turned off ('%s' = 'false'), which upserts"
                  + " write. Set it to 'true' (readers then need reader version 3 with the"
                  + " deletionVectors feature).",
              tableName, DELETION_VECTORS));
    }
    return problems;
  }

  /** Whether writers may write deletion vectors into a table of {@code properties}. */
  public static boolean deletionVectorsOn(Map<String, String> properties) {
    return on(properties, DELETION_VECTORS);
  }

  private static boolean on(Map<String, String> properties, String key) {
    return "true".equalsIgnoreCase(properties.get(key));
  }
}
