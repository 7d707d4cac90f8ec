/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's schema evolution example, run as the README runs it: the table it leaves is the one
 * the README shows, read back through Delta Kernel.
 */
class SchemaEvolutionExampleTest {

  @TempDir Path dir;

  @Test
  void theFirstJobsRowsReadNullInTheAddedColumnsAndTheirValuesInTheWidenedOne() throws Exception {
    String table = SchemaEvolutionExample.run(dir);

    assertThat(TableContents.schema(table))
        .isEqualTo(
            """
              id long NOT NULL
              name string
              visits long (widened from integer)
              address struct
                city string
                zip string
              email string
            """);
    assertThat(TableContents.rows(table))
        .isEqualTo(
            """
              id=1, name=Ada, visits=3, address={city=Lisbon, zip=null}, email=null
              id=2, name=Grace, visits=7, address={city=Oslo, zip=null}, email=null
              id=3, name=Linus, visits=1, address=null, email=null
              id=4, name=Barbara, visits=5000000000, address={city=Boston, zip=02139}, \
            email=barbara@example.com
              id=5, name=Edsger, visits=12, address={city=Lyon, zip=null}, email=null
            """);
    // The schema changed in a version of its own, between the two jobs' appends.
    assertThat(TableContents.versions(dir.resolve("customers")).lines())
        .containsExactly(
            "  0  CREATE TABLE      metaData protocol",
            "  1  STREAMING UPDATE  txn add",
            "  2  Manual Update     metaData protocol",
            "  3  STREAMING UPDATE  txn add");
  }
}
