/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sparktestkit;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Apache Spark SQL with Delta Lake, run in a child JVM so that Spark's classpath (Scala, its own
 * Hadoop, Parquet and Jackson) never meets the caller's, Flink's above all. This class needs
 * nothing but the JDK: depend on the test kit with all its transitive dependencies excluded. The
 * child's classpath is the one Maven resolved when it built the test kit, read from the jar.
 *
 * <p>The child runs a local session ({@code local[2]}, no UI, an in-memory catalog, Delta's SQL
 * extension and catalog) and answers one statement at a time; Delta tables are reached by path,
 * {@code delta.`/some/dir`}. Values come back as strings, as Spark's {@code CAST(... AS STRING)}
 * writes them, and SQL NULL as {@code null}.
 *
 * <pre>{@code
 * try (SparkSql spark = SparkSql.start(workDir, Map.of())) {
 *   spark.execute("CREATE TABLE delta.`" + table + "` (id BIGINT) USING delta");
 *   List<List<String>> rows = spark.query("SELECT id FROM delta.`" + table + "`");
 * }
 * }</pre>
 *
 * <p>Starting costs a JVM and a Spark session, some seconds (5 to 10 on two cores), and the first
 * statements run slowly while the child warms up: share one instance across a test class. It is not
 * for concurrent use; statements run one after another.
 */
public final class SparkSql implements AutoCloseable {

  /** How long a statement may run before the child is killed: see {@link #setStatementTimeout}. */
  public static final Duration DEFAULT_STATEMENT_TIMEOUT = Duration.ofMinutes(10);

  private static final Duration START_TIMEOUT = Duration.ofMinutes(5);
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);
  private static final String LOG_FILE = "spark-sql.log";
  private static final int LOG_LINES_IN_ERRORS = 40;
  private static final String STARTING = "starting Spark";

  /**
   * What Spark 4.2's own launcher gives every JVM it starts ({@code
   * org.apache.spark.launcher.JavaModuleOptions}): the vector API, and the JDK internals that
   * Spark's off-heap memory, serializers and Netty reach into. Left out: the Kerberos opening,
   * Netty's allocator and TLS settings, and the options of later JDKs that Java 17 refuses. Spark
   * 4.2 no longer passes {@code -Djdk.reflect.useDirectMethodHandle=false}, and needs no such thing
   * here.
   */
  private static final List<String> JVM_OPTIONS =
      List.of(
          "--add-modules=jdk.incubator.vector",
          "--add-opens=java.base/java.lang=ALL-UNNAMED",
          "--add-opens=java.base/java.lang.invoke=ALL-UNNAMED",
          "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
          "--add-opens=java.base/java.io=ALL-UNNAMED",
          "--add-opens=java.base/java.net=ALL-UNNAMED",
          "--add-opens=java.base/java.nio=ALL-UNNAMED",
          "--add-opens=java.base/java.util=ALL-UNNAMED",
          "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
          "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
          "--add-opens=java.base/jdk.internal.ref=ALL-UNNAMED",
          "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
          "--add-opens=java.base/sun.nio.cs=ALL-UNNAMED",
          "--add-opens=java.base/sun.security.action=ALL-UNNAMED",
          "--add-opens=java.base/sun.util.calendar=ALL-UNNAMED",
          "-Dio.netty.tryReflectionSetAccessible=true");

  /** Spark at WARN, to stderr, which goes to the log file. */
  private static final String LOG4J2_PROPERTIES =
      """
      rootLogger.level = warn
      rootLogger.appenderRef.stderr.ref = stderr
      appender.stderr.type = Console
      appender.stderr.name = stderr
      appender.stderr.target = SYSTEM_ERR
      appender.stderr.layout.type = PatternLayout
      appender.stderr.layout.pattern = %d{HH:mm:ss.SSS} %-5p %c: %m%n%ex
      """;

  private final Process process;
  private final Path log;
  private final BufferedWriter requests;
  private final BufferedReader responses;
  private final ScheduledExecutorService watchdog;
  private final Thread shutdownHook;
  private volatile Duration statementTimeout = DEFAULT_STATEMENT_TIMEOUT;
  private volatile Duration killedAfter;
  private String sparkVersion;
  private boolean closed;

  private SparkSql(Process process, Path log) {
    this.process = process;
    this.log = log;
    this.requests =
        new BufferedWriter(
            new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8));
    this.responses =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    this.watchdog =
        Executors.newSingleThreadScheduledExecutor(
            task -> {
              Thread thread = new Thread(task, "spark-sql-watchdog");
              thread.setDaemon(true);
              return thread;
            });
    // A child outliving the tests would hold its memory and its files until someone noticed.
    this.shutdownHook = new Thread(this::kill, "spark-sql-shutdown");
    Runtime.getRuntime().addShutdownHook(shutdownHook);
  }

  /**
   * Starts the child and returns once its Spark session is up. The warehouse, Spark's scratch space
   * and the child's log ({@code spark-sql.log}, Spark's own logging at WARN and the stack trace of
   * every failed statement) go under {@code workDirectory}.
   *
   * @param extraConf Spark settings applied after this class's own, which they may override
   * @throws IllegalStateException if the child exits or is not up within five minutes; the message
   *     names the log and quotes its end
   */
  public static SparkSql start(Path workDirectory, Map<String, String> extraConf) {
    Path work = workDirectory.toAbsolutePath();
    Path log = work.resolve(LOG_FILE);
    Process process;
    try {
      Files.createDirectories(work);
      Path logging = work.resolve("spark-log4j2.properties");
      Files.writeString(logging, LOG4J2_PROPERTIES);
      List<String> command = new ArrayList<>();
      command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      command.add("-Xmx1g");
      // Spark's scratch space (spark.local.dir) defaults to the temporary directory.
      command.add("-Djava.io.tmpdir=" + Files.createDirectories(work.resolve("tmp")));
      command.addAll(JVM_OPTIONS);
      command.add("-Dlog4j2.configurationFile=" + logging.toUri());
      command.add(SparkSqlServer.class.getName());
      command.add(work.toString());
      extraConf.forEach(
          (key, value) -> {
            command.add("--conf");
            command.add(key + "=" + value);
          });
      ProcessBuilder builder =
          new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.to(log.toFile()));
      // Spark binds to loopback anyway (spark.driver.host); this spares it looking up the host's
      // name and warning that it resolves to loopback.
      builder.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
      // In the environment rather than after -cp: a command line of a few hundred characters stays
      // readable in ps, and whole in ProcessHandle.Info, which reads only its first 4 KB.
      builder.environment().put("CLASSPATH", classpath());
      process = builder.start();
    } catch (IOException e) {
      throw new UncheckedIOException("Could not start the Spark child in " + work, e);
    }
    SparkSql spark = new SparkSql(process, log);
    try {
      Frame ready = spark.receive(STARTING, START_TIMEOUT);
      if (!ready.tag().equals(Frame.READY)) {
        throw spark.protocolError(STARTING, ready);
      }
      spark.sparkVersion = ready.fields().get(0);
      return spark;
    } catch (RuntimeException e) {
      spark.close();
      throw e;
    }
  }

  /**
   * Runs one statement and returns its result rows, each a list of the row's values as strings, SQL
   * NULL as {@code null}. Commands return what Spark returns for them: nothing for DDL, counts for
   * DML ({@code num_affected_rows} and the like), metrics for {@code OPTIMIZE}.
   *
   * @throws SparkSqlException if Spark fails the statement; the child stays up
   * @throws IllegalStateException if the child has died, or the statement ran longer than the
   *     {@linkplain #setStatementTimeout timeout} and the child was killed for it
   */
  public synchronized List<List<String>> query(String sql) {
    Objects.requireNonNull(sql, "sql");
    if (closed) {
      throw new IllegalStateException("This SparkSql is closed");
    }
    String activity = "running: " + sql;
    try {
      requests.write(Frame.of(Frame.SQL, sql).encode());
      requests.write('\n');
      requests.flush();
    } catch (IOException e) {
      throw childGone(activity);
    }
    List<List<String>> rows = new ArrayList<>();
    while (true) {
      Frame frame = receive(activity, statementTimeout);
      switch (frame.tag()) {
        case Frame.ROW -> rows.add(frame.fields());
        case Frame.DONE -> {
          return Collections.unmodifiableList(rows);
        }
        case Frame.ERROR -> {
          List<String> error = frame.fields();
          throw new SparkSqlException(sql, error.get(0), error.get(1), error.get(2), log);
        }
        default -> throw protocolError(activity, frame);
      }
    }
  }

  /** Runs one statement for its effect, like {@link #query} but dropping any result rows. */
  public void execute(String sql) {
    query(sql);
  }

  /**
   * Sets how long each statement may run (the default is {@link #DEFAULT_STATEMENT_TIMEOUT}). When
   * one runs longer, the child is killed, since a Spark statement cannot be abandoned midway
   * otherwise, and this instance is of no further use.
   */
  public void setStatementTimeout(Duration timeout) {
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("The statement timeout must be positive: " + timeout);
    }
    this.statementTimeout = timeout;
  }

  /** The version of the child's Spark, e.g. {@code 4.2.0}. */
  public String sparkVersion() {
    return sparkVersion;
  }

  /** The child's log: Spark's warnings and errors, and every failed statement's stack trace. */
  public Path logFile() {
    return log;
  }

  /**
   * Asks the child to stop its Spark session and exit, and kills it (with any processes it started)
   * if it has not within ten seconds.
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      requests.write(Frame.of(Frame.STOP).encode());
      requests.write('\n');
      requests.close();
    } catch (IOException alreadyGone) {
      // The child has exited: nothing to ask.
    }
    try {
      if (!process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
        kill();
      }
    } catch (InterruptedException e) {
      kill();
      Thread.currentThread().interrupt();
    }
    watchdog.shutdownNow();
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException alreadyShuttingDown) {
      // The hook runs anyway.
    }
  }

  /**
   * Reads the child's next message, killing the child if none comes within {@code timeout}: a
   * blocked read only ends when the child's stdout closes.
   *
   * @param activity what the child is doing, for error messages
   */
  private Frame receive(String activity, Duration timeout) {
    ScheduledFuture<?> deadline =
        watchdog.schedule(
            () -> {
              killedAfter = timeout;
              kill();
            },
            timeout.toMillis(),
            TimeUnit.MILLISECONDS);
    String line;
    try {
      line = responses.readLine();
    } catch (IOException e) {
      line = null;
    } finally {
      deadline.cancel(false);
    }
    if (line == null) {
      throw childGone(activity);
    }
    try {
      return Frame.decode(line);
    } catch (IllegalArgumentException e) {
      kill();
      throw new IllegalStateException(
          "The Spark child wrote a line that is not a message, while " + activity + ": " + line, e);
    }
  }

  private void kill() {
    process.descendants().forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
  }

  private IllegalStateException childGone(String activity) {
    if (killedAfter != null) {
      return new IllegalStateException(
          "The Spark child was killed after "
              + killedAfter
              + " without an answer, while "
              + activity
              + ". "
              + logTail());
    }
    String exit;
    try {
      exit =
          process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
              ? "exited with code " + process.exitValue()
              : "closed its output";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      exit = "closed its output";
    }
    return new IllegalStateException(
        "The Spark child " + exit + " while " + activity + ". " + logTail());
  }

  private IllegalStateException protocolError(String activity, Frame frame) {
    kill();
    return new IllegalStateException(
        "Unexpected " + frame.tag() + " from the Spark child while " + activity + ". " + logTail());
  }

  private String logTail() {
    try {
      List<String> lines = Files.readAllLines(log);
      return "The end of its log, "
          + log
          + ":\n"
          + String.join(
              "\n", lines.subList(Math.max(0, lines.size() - LOG_LINES_IN_ERRORS), lines.size()));
    } catch (IOException e) {
      return "Its log, " + log + ", cannot be read: " + e;
    }
  }

  /** Spark's classpath as the build wrote it into the jar, and the jar itself for the server. */
  private static String classpath() throws IOException {
    String spark;
    try (InputStream in = SparkSql.class.getResourceAsStream("spark.classpath")) {
      if (in == null) {
        throw new IOException(
            "spark.classpath is missing from the spark-testkit jar: build the module with Maven");
      }
      spark = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
    }
    // Callers exclude the test kit's dependencies, so Maven does not fetch them for the caller:
    // the jars are there only because this module's build fetched them into the local repository.
    for (String entry : spark.split(File.pathSeparator)) {
      if (!Files.exists(Path.of(entry))) {
        throw new IOException(
            entry
                + ", on the classpath the spark-testkit jar names for Spark, is missing:"
                + " build spark-testkit (./mvnw -pl spark-testkit install) to fetch it");
      }
    }
    try {
      Path self =
          Path.of(SparkSql.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      return self + File.pathSeparator + spark;
    } catch (URISyntaxException e) {
      throw new IOException("Cannot locate the spark-testkit classes", e);
    }
  }
}
