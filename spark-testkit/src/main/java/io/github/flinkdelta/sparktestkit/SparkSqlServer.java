/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sparktestkit;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.spark.SparkThrowable;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;

/**
 * The main class of the child JVM that {@link SparkSql} starts: a local Spark session with Delta
 * Lake that runs the statements read from stdin, one at a time, and writes each one's result rows
 * or error to stdout, as {@link Frame}s. It ends on {@code STOP} or when stdin closes, so a child
 * whose caller died does not outlive it.
 *
 * <p>Arguments: the work directory (the warehouse goes under it), then any number of {@code --conf
 * key=value}, applied after the defaults here and so able to override them.
 *
 * <p>Any code in the child may print to {@code System.out} ({@code Dataset.show} does); the
 * protocol owns the real stdout, so {@code System.out} is pointed at stderr (the child's log)
 * before anything else runs.
 */
final class SparkSqlServer {

  private SparkSqlServer() {}

  public static void main(String[] args) {
    Writer protocol =
        new BufferedWriter(
            new OutputStreamWriter(
                new FileOutputStream(FileDescriptor.out), StandardCharsets.UTF_8));
    System.setOut(System.err);
    // Spark may leave non-daemon threads behind, after a failed start above all, which would keep
    // the JVM alive after main returns: it ends with an explicit exit either way.
    try {
      serve(session(args).getOrCreate(), protocol);
      System.exit(0);
    } catch (Throwable e) {
      System.err.println("The Spark SQL server failed:");
      e.printStackTrace();
      System.exit(1);
    }
  }

  private static void serve(SparkSession spark, Writer protocol) throws IOException {
    send(protocol, Frame.of(Frame.READY, spark.version()));
    BufferedReader requests =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line = requests.readLine(); line != null; line = requests.readLine()) {
      Frame request = Frame.decode(line);
      if (request.tag().equals(Frame.STOP)) {
        break;
      }
      if (!request.tag().equals(Frame.SQL) || request.fields().size() != 1) {
        throw new IllegalStateException("Not a request: " + line);
      }
      for (Frame response : run(spark, request.fields().get(0))) {
        send(protocol, response);
      }
    }
    spark.stop();
  }

  private static SparkSession.Builder session(String[] args) {
    Path workDirectory = Path.of(args[0]);
    SparkSession.Builder builder =
        SparkSession.builder()
            .appName("flink-connector-delta-spark-testkit")
            .master("local[2]")
            .config("spark.ui.enabled", "false")
            .config("spark.sql.shuffle.partitions", "2")
            .config("spark.driver.host", "127.0.0.1")
            .config("spark.driver.bindAddress", "127.0.0.1")
            .config("spark.sql.catalogImplementation", "in-memory")
            .config("spark.sql.warehouse.dir", workDirectory.resolve("warehouse").toString())
            .config("spark.sql.extensions", "io.delta.sql.DeltaSparkSessionExtension")
            .config(
                "spark.sql.catalog.spark_catalog",
                "org.apache.spark.sql.delta.catalog.DeltaCatalog")
            // Lets tests VACUUM with RETAIN 0 HOURS.
            .config("spark.databricks.delta.retentionDurationCheck.enabled", "false");
    for (int i = 1; i < args.length; i += 2) {
      if (!args[i].equals("--conf") || i + 1 == args.length || !args[i + 1].contains("=")) {
        throw new IllegalArgumentException(
            "Expected --conf key=value, got: " + String.join(" ", args));
      }
      String setting = args[i + 1];
      int equals = setting.indexOf('=');
      builder.config(setting.substring(0, equals), setting.substring(equals + 1));
    }
    return builder;
  }

  /**
   * Runs one statement and returns its answer: every row, every value cast to a string by Spark (so
   * values read the way {@code CAST(... AS STRING)} writes them) then {@code DONE}; or the error.
   * The rows are collected before any is sent, so a failure midway answers with the error alone.
   */
  private static List<Frame> run(SparkSession spark, String statement) {
    try {
      Dataset<Row> result = spark.sql(statement);
      // Positional names, since a result may have two columns of the same name.
      String[] names = new String[result.columns().length];
      Column[] asStrings = new Column[names.length];
      for (int i = 0; i < names.length; i++) {
        names[i] = "c" + i;
        asStrings[i] = functions.col(names[i]).cast(DataTypes.StringType);
      }
      List<Frame> answer = new ArrayList<>();
      for (Row row : result.toDF(names).select(asStrings).collectAsList()) {
        String[] values = new String[row.length()];
        for (int i = 0; i < values.length; i++) {
          values[i] = row.isNullAt(i) ? null : row.getString(i);
        }
        answer.add(Frame.of(Frame.ROW, values));
      }
      answer.add(Frame.of(Frame.DONE));
      return answer;
    } catch (Exception | LinkageError e) {
      System.err.println("Statement failed: " + statement);
      e.printStackTrace();
      String condition = e instanceof SparkThrowable classified ? classified.getCondition() : null;
      return List.of(
          Frame.of(
              Frame.ERROR,
              e.getClass().getName(),
              condition,
              Objects.toString(e.getMessage(), "(no message)")));
    }
  }

  private static void send(Writer protocol, Frame frame) throws IOException {
    protocol.write(frame.encode());
    protocol.write('\n');
    protocol.flush();
  }
}
