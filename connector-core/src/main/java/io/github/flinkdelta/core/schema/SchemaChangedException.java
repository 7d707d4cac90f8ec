/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.core.schema;

import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.annotation.PublicEvolving;

/**
 * Another writer changed a table so that the sink can no longer commit the files it wrote for it: a
 * column dropped or renamed under them, a type narrowed, other partition columns, a column made NOT
 * NULL that the files hold nulls in, a table feature the sink does not honour, or (for upserts)
 * deletion vectors turned off. The files are not committed; retrying does not help until the change
 * is undone or the job is rebuilt for the table as it is now.
 */
@PublicEvolving
public final class SchemaChangedException extends IllegalStateException {

  private static final long serialVersionUID = 1L;

  /** Made by the sink's commit checks; not for users. */
  @Internal
  public SchemaChangedException(String table, long version, List<String> problems) {
    super(
        String.format(
            "Delta table %s changed under the job (version %d) in a way its data files cannot"
                + " follow: %s. Nothing of this checkpoint was committed; its files stay pending"
                + " and each restart tries again. Undo the change, or rebuild the job for the"
                + " table as it is now (building the sink lists every difference) and restart it"
                + " from its latest checkpoint",
            table, version, String.join("; ", problems)));
  }
}
