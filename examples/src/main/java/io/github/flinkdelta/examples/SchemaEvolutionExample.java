/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.examples;

import io.github.flinkdelta.core.config.SchemaEvolution;
import io.github.flinkdelta.sink.DeltaSink;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;

/**
 * Two jobs write one Delta table on local disk, the second with rows of a newer shape: an added
 * column at the top level and one inside a struct, an {@code INT} column now {@code BIGINT}, and
 * the columns in another order. The second sink is built with {@code schemaEvolution(WIDEN)}, so
 * building it evolves the table; it then writes its rows like any other.
 *
 * <p>Prints the table's path and schema after each job, the table's versions (the schema change is
 * a version of its own, before the version with the new rows) and its rows: the first job's rows
 * read null in the added columns and their old values in the widened one.
 *
 * <p>Arguments: {@code [--path <directory>]}, where the table {@code customers} is created; by
 * default a new directory under the system temp directory.
 */
public final class SchemaEvolutionExample {

  /** The first job's rows: id, name, visits (INT), address (city). */
  static final RowType V1 =
      RowType.of(
          new LogicalType[] {new BigIntType(false), string(), new IntType(), V1Address.TYPE},
          new String[] {"id", "name", "visits", "address"});

  /**
   * The second job's rows: email is new, visits is now BIGINT, address gains zip (before city), and
   * the columns come in another order.
   */
  static final RowType V2 =
      RowType.of(
          new LogicalType[] {
            string(), new BigIntType(), V2Address.TYPE, string(), new BigIntType(false)
          },
          new String[] {"email", "visits", "address", "name", "id"});

  private SchemaEvolutionExample() {}

  public static void main(String[] args) throws Exception {
    Path dir =
        args.length >= 2 && args[0].equals("--path")
            ? Path.of(args[1])
            : Files.createTempDirectory("flink-delta-schema-evolution");
    run(dir);
  }

  /** Runs both jobs on the table {@code customers} in {@code dir}; returns the table's URI. */
  static String run(Path dir) throws Exception {
    Path tableDir = dir.resolve("customers");
    if (Files.exists(tableDir)) {
      throw new IllegalArgumentException(
          tableDir + " exists already; give --path a directory without a 'customers' table");
    }
    String table = tableDir.toUri().toString();

    write(
        table,
        V1,
        SchemaEvolution.ADD_COLUMNS,
        List.of(
            GenericRowData.of(1L, text("Ada"), 3, V1Address.of("Lisbon")),
            GenericRowData.of(2L, text("Grace"), 7, V1Address.of("Oslo")),
            GenericRowData.of(3L, text("Linus"), 1, null)));
    System.out.println();
    System.out.println("Table: " + table);
    System.out.println("Schema after job 1:");
    System.out.print(TableContents.schema(table));

    write(
        table,
        V2,
        SchemaEvolution.WIDEN,
        List.of(
            GenericRowData.of(
                text("barbara@example.com"),
                5_000_000_000L,
                V2Address.of("02139", "Boston"),
                text("Barbara"),
                4L),
            GenericRowData.of(null, 12L, V2Address.of(null, "Lyon"), text("Edsger"), 5L)));
    System.out.println();
    System.out.println("Schema after job 2:");
    System.out.print(TableContents.schema(table));
    System.out.println("Versions:");
    System.out.print(TableContents.versions(tableDir));
    System.out.println("Rows:");
    System.out.print(TableContents.rows(table));
    return table;
  }

  /** Runs a bounded job writing {@code rows} of {@code type} into {@code table}. */
  private static void write(String table, RowType type, SchemaEvolution mode, List<RowData> rows)
      throws Exception {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setRuntimeMode(RuntimeExecutionMode.BATCH);
    env.setParallelism(1);
    DeltaSink sink =
        DeltaSink.builder()
            .tablePath(table)
            .rowType(type)
            .schemaEvolution(mode) // evolves the table, if it must, here at build()
            .build();
    env.fromData(rows, InternalTypeInfo.of(type)).sinkTo(sink);
    env.execute("schema evolution example: " + mode);
  }

  private static final class V1Address {
    static final RowType TYPE = RowType.of(new LogicalType[] {string()}, new String[] {"city"});

    static RowData of(String city) {
      return GenericRowData.of(text(city));
    }
  }

  private static final class V2Address {
    static final RowType TYPE =
        RowType.of(new LogicalType[] {string(), string()}, new String[] {"zip", "city"});

    static RowData of(String zip, String city) {
      return GenericRowData.of(text(zip), text(city));
    }
  }

  private static LogicalType string() {
    return new VarCharType(VarCharType.MAX_LENGTH);
  }

  private static StringData text(String value) {
    return value == null ? null : StringData.fromString(value);
  }
}
