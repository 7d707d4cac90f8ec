/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.support;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * Statements another engine runs on a {@link Changelog}'s upsert table while the job writes it, and
 * what each does to the table's rows. Each one's predicate names rows by the change that wrote them
 * ({@code version}), among changes the table already holds when it runs, so its effect is known
 * exactly whatever the job does meanwhile: a later change of a key replaces what the statement left
 * of it, as it would in the table.
 */
public enum ForeignStatements {
  /** {@code INSERT} of keys the table does not hold (some of which the stream changes later). */
  INSERT {
    @Override
    public String sql(String table, long stop) {
      return "INSERT INTO "
          + table
          + " SELECT id, CAST(id % 3 AS INT), -1L, concat('spark-insert-', id) FROM range(0, "
          + KEYS
          + ") WHERE id % 10 = 0 AND id NOT IN (SELECT id FROM "
          + table
          + ")";
    }

    @Override
    public Map<Long, List<Object>> apply(Map<Long, List<Object>> rows, long stop) {
      Map<Long, List<Object>> after = new TreeMap<>(rows);
      for (long id = 0; id < KEYS; id += 10) {
        after.putIfAbsent(id, row(id, (int) (id % 3), -1L, "spark-insert-" + id));
      }
      return after;
    }
  },

  /** {@code DELETE} of rows the changes before the stop wrote. */
  DELETE {
    @Override
    public String sql(String table, long stop) {
      return "DELETE FROM " + table + " WHERE version < " + stop + " AND id % 4 = 0";
    }

    @Override
    public Map<Long, List<Object>> apply(Map<Long, List<Object>> rows, long stop) {
      return without(rows, row -> version(row) < stop && id(row) % 4 == 0);
    }
  },

  /** {@code UPDATE} of rows the changes before the stop wrote: new values, same keys. */
  UPDATE {
    @Override
    public String sql(String table, long stop) {
      return "UPDATE "
          + table
          + " SET payload = concat('spark-', payload) WHERE version < "
          + stop
          + " AND id % 5 = 1";
    }

    @Override
    public Map<Long, List<Object>> apply(Map<Long, List<Object>> rows, long stop) {
      Map<Long, List<Object>> after = new TreeMap<>(rows);
      rows.forEach(
          (id, row) -> {
            if (version(row) < stop && id % 5 == 1) {
              after.put(id, row(id, (Integer) row.get(1), version(row), "spark-" + row.get(3)));
            }
          });
      return after;
    }
  },

  /**
   * {@code MERGE} with a delete, an update and an insert clause: keys the stream owns and keys
   * beyond them.
   */
  MERGE {
    @Override
    public String sql(String table, long stop) {
      return "MERGE INTO "
          + table
          + " t USING (SELECT id FROM range(0, "
          + KEYS
          + ") UNION ALL SELECT id FROM range(1000, 1010)) s ON t.id = s.id"
          + " WHEN MATCHED AND t.version < "
          + stop
          + " AND t.id % 7 = 2 THEN DELETE"
          + " WHEN MATCHED AND t.version < "
          + stop
          + " AND t.id % 7 = 3 THEN UPDATE SET payload = 'merged'"
          + " WHEN NOT MATCHED AND (s.id % 9 = 0 OR s.id >= 1000) THEN INSERT"
          + " (id, bucket, version, payload) VALUES (s.id, 1, -2L, 'merge-insert')";
    }

    @Override
    public Map<Long, List<Object>> apply(Map<Long, List<Object>> rows, long stop) {
      Map<Long, List<Object>> after = new TreeMap<>();
      rows.forEach(
          (id, row) -> {
            boolean matched = id < KEYS || (id >= 1000 && id < 1010);
            if (matched && version(row) < stop && id % 7 == 2) {
              return;
            }
            after.put(
                id,
                matched && version(row) < stop && id % 7 == 3
                    ? row(id, (Integer) row.get(1), version(row), "merged")
                    : row);
          });
      List<Long> source = new ArrayList<>();
      for (long id = 0; id < KEYS; id++) {
        source.add(id);
      }
      for (long id = 1000; id < 1010; id++) {
        source.add(id);
      }
      for (long id : source) {
        if (!rows.containsKey(id) && (id % 9 == 0 || id >= 1000)) {
          after.put(id, row(id, 1, -2L, "merge-insert"));
        }
      }
      return after;
    }
  },

  /** {@code OPTIMIZE}: the rows move into other files, and stay as they are. */
  OPTIMIZE {
    @Override
    public String sql(String table, long stop) {
      return "OPTIMIZE " + table;
    }

    @Override
    public Map<Long, List<Object>> apply(Map<Long, List<Object>> rows, long stop) {
      return rows;
    }
  };

  /** The keys of the changelog the statements are written for. */
  public static final long KEYS = 400;

  /** The statement on {@code table} (as Spark names it) for a stop before change {@code stop}. */
  public abstract String sql(String table, long stop);

  /** The rows after the statement, from {@code rows} before it. */
  public abstract Map<Long, List<Object>> apply(Map<Long, List<Object>> rows, long stop);

  public static List<Object> row(long id, int bucket, long version, String payload) {
    return List.of(id, bucket, version, payload);
  }

  public static long id(List<Object> row) {
    return (Long) row.get(0);
  }

  public static long version(List<Object> row) {
    return (Long) row.get(2);
  }

  private static Map<Long, List<Object>> without(
      Map<Long, List<Object>> rows, Predicate<List<Object>> deleted) {
    Map<Long, List<Object>> after = new TreeMap<>();
    rows.forEach(
        (id, row) -> {
          if (!deleted.test(row)) {
            after.put(id, row);
          }
        });
    return after;
  }
}
