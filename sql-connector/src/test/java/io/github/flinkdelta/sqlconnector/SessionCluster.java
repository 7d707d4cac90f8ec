/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.sqlconnector;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Flink session cluster as a standalone deployment runs one, without flink-dist: a JobManager
 * ({@code StandaloneSessionClusterEntrypoint}) and TaskManagers ({@code TaskManagerRunner}), each a
 * child JVM on loopback whose classpath is what a distribution's {@code lib/} holds (Flink's jars
 * from Maven Central and the shaded connector jar). The start scripts compute each process's JVM
 * memory flags from the memory configuration; here the configuration gives every TaskManager memory
 * component explicitly and the JVM flags are derived from the same numbers.
 */
final class SessionCluster implements AutoCloseable {

  private static final Pattern TASK_MANAGERS = Pattern.compile("\"taskmanagers\"\\s*:\\s*(\\d+)");

  // TaskManager memory, in MiB: heap = framework + task heap; direct = framework + task off-heap +
  // network.
  private static final int FRAMEWORK_HEAP = 64;
  private static final int TASK_HEAP = 256;
  private static final int FRAMEWORK_OFF_HEAP = 64;
  private static final int TASK_OFF_HEAP = 128;
  private static final int NETWORK = 64;
  private static final int MANAGED = 64;
  private static final int METASPACE = 256;

  static final List<String> LEAN_JVM = List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");

  private final Path dir;
  private final String classpath;
  private final List<String> jvmOptions;
  private final int restPort;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  private final List<Process> processes = new CopyOnWriteArrayList<>();
  private Process jobManager;
  private Thread reaper;
  private final List<Process> taskManagers = new ArrayList<>();

  private SessionCluster(Path dir, String classpath, List<String> jvmOptions, int restPort) {
    this.dir = dir;
    this.classpath = classpath;
    this.jvmOptions = jvmOptions;
    this.restPort = restPort;
  }

  /**
   * Starts a JobManager and {@code taskManagers} TaskManagers of {@code slots} slots each, and
   * waits until all have registered.
   */
  static SessionCluster start(
      Path dir, List<String> lib, List<String> jvmOptions, int taskManagers, int slots)
      throws IOException, InterruptedException {
    int restPort = freePort();
    SessionCluster cluster =
        new SessionCluster(dir, String.join(File.pathSeparator, lib), jvmOptions, restPort);
    // Should this JVM exit before close(), e.g. a fork killed on timeout, the cluster goes too.
    Thread reaper = new Thread(cluster::destroyAll, "session-cluster-reaper");
    Runtime.getRuntime().addShutdownHook(reaper);
    cluster.reaper = reaper;
    try {
      cluster.writeConfiguration(freePort(), slots);
      cluster.jobManager =
          cluster.startProcess(
              "jobmanager",
              List.of("-Xmx512m", "-Xms512m", "-XX:MaxMetaspaceSize=256m"),
              "org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint");
      for (int i = 0; i < taskManagers; i++) {
        cluster.startTaskManager();
      }
      cluster.awaitTaskManagers(taskManagers, Duration.ofMinutes(3));
      return cluster;
    } catch (IOException | InterruptedException | RuntimeException | Error e) {
      cluster.close();
      throw e;
    }
  }

  int restPort() {
    return restPort;
  }

  Path directory() {
    return dir;
  }

  /** Starts one more TaskManager (its resource id and directories its own). */
  Process startTaskManager() throws IOException {
    int index = taskManagers.size();
    Path tmp = Files.createDirectories(dir.resolve("tm-" + index + "-tmp"));
    List<String> options = new ArrayList<>();
    options.add("-Xmx" + (FRAMEWORK_HEAP + TASK_HEAP) + "m");
    options.add("-Xms" + (FRAMEWORK_HEAP + TASK_HEAP) + "m");
    options.add("-XX:MaxDirectMemorySize=" + (FRAMEWORK_OFF_HEAP + TASK_OFF_HEAP + NETWORK) + "m");
    options.add("-XX:MaxMetaspaceSize=" + METASPACE + "m");
    Process process =
        startProcess(
            "taskmanager-" + index,
            options,
            "org.apache.flink.runtime.taskexecutor.TaskManagerRunner",
            "-D",
            "taskmanager.resource-id=tm-" + index,
            "-D",
            "io.tmp.dirs=" + tmp);
    taskManagers.add(process);
    return process;
  }

  /** Kills a TaskManager as a machine failure would, with no chance to deregister. */
  void killTaskManager(int index) throws InterruptedException {
    Process process = taskManagers.get(index);
    process.destroyForcibly();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      throw new IllegalStateException("TaskManager " + index + " did not die");
    }
  }

  /** The number of TaskManagers the JobManager has registered. */
  int registeredTaskManagers() {
    Matcher m = TASK_MANAGERS.matcher(get("/overview"));
    return m.find() ? Integer.parseInt(m.group(1)) : -1;
  }

  /** GETs a REST path of the JobManager, returning the body of a 200 answer. */
  String get(String path) {
    return send(HttpRequest.newBuilder(rest(path)).GET().build());
  }

  /** POSTs a JSON body to a REST path of the JobManager. */
  String post(String path, String json) {
    return send(
        HttpRequest.newBuilder(rest(path))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(json))
            .build());
  }

  /** Uploads a job jar through {@code POST /jars/upload}, as the web UI does. */
  String uploadJar(Path jar) throws IOException {
    String boundary = "----session-cluster-it-" + System.nanoTime();
    byte[] head =
        ("--"
                + boundary
                + "\r\nContent-Disposition: form-data; name=\"jarfile\"; filename=\""
                + jar.getFileName()
                + "\"\r\nContent-Type: application/x-java-archive\r\n\r\n")
            .getBytes(StandardCharsets.UTF_8);
    byte[] tail = ("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8);
    return send(
        HttpRequest.newBuilder(rest("/jars/upload"))
            .header("Content-Type", "multipart/form-data; boundary=" + boundary)
            .POST(
                HttpRequest.BodyPublishers.ofByteArrays(
                    List.of(head, Files.readAllBytes(jar), tail)))
            .build());
  }

  /** The logs of every process, for a failure's message. */
  String logs() {
    StringBuilder all = new StringBuilder();
    try (var files = Files.list(dir)) {
      for (Path log : files.filter(p -> p.toString().endsWith(".log")).sorted().toList()) {
        String text = Files.readString(log);
        all.append("\n===== ").append(log.getFileName()).append(" (tail) =====\n");
        all.append(text, Math.max(0, text.length() - 6000), text.length());
      }
    } catch (IOException e) {
      all.append(e);
    }
    return all.toString();
  }

  static void await(String what, Duration timeout, BooleanSupplier condition)
      throws InterruptedException {
    Instant deadline = Instant.now().plus(timeout);
    while (!condition.getAsBoolean()) {
      if (Instant.now().isAfter(deadline)) {
        throw new IllegalStateException("timed out after " + timeout + " waiting for " + what);
      }
      Thread.sleep(250);
    }
  }

  @Override
  public void close() {
    destroyAll();
    try {
      Runtime.getRuntime().removeShutdownHook(reaper);
    } catch (IllegalStateException shuttingDown) {
      // the hook runs anyway
    }
  }

  private void destroyAll() {
    for (Process process : processes) {
      process.destroyForcibly();
    }
    for (Process process : processes) {
      try {
        process.waitFor(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private void awaitTaskManagers(int count, Duration timeout) throws InterruptedException {
    await(
        count + " registered TaskManagers",
        timeout,
        () -> {
          if (!jobManager.isAlive()) {
            throw new IllegalStateException("the JobManager exited:" + logs());
          }
          try {
            return registeredTaskManagers() == count;
          } catch (RuntimeException notYetUp) {
            return false;
          }
        });
  }

  private void writeConfiguration(int rpcPort, int slots) throws IOException {
    Map<String, String> conf = new TreeMap<>();
    conf.put("jobmanager.rpc.address", "127.0.0.1");
    conf.put("jobmanager.rpc.port", Integer.toString(rpcPort));
    conf.put("jobmanager.bind-host", "127.0.0.1");
    conf.put("jobmanager.memory.process.size", "1024m");
    conf.put("rest.address", "127.0.0.1");
    conf.put("rest.bind-address", "127.0.0.1");
    conf.put("rest.port", Integer.toString(restPort));
    conf.put("taskmanager.host", "127.0.0.1");
    conf.put("taskmanager.bind-host", "127.0.0.1");
    conf.put("taskmanager.numberOfTaskSlots", Integer.toString(slots));
    conf.put("taskmanager.memory.framework.heap.size", FRAMEWORK_HEAP + "m");
    conf.put("taskmanager.memory.task.heap.size", TASK_HEAP + "m");
    conf.put("taskmanager.memory.framework.off-heap.size", FRAMEWORK_OFF_HEAP + "m");
    conf.put("taskmanager.memory.task.off-heap.size", TASK_OFF_HEAP + "m");
    conf.put("taskmanager.memory.network.min", NETWORK + "m");
    conf.put("taskmanager.memory.network.max", NETWORK + "m");
    conf.put("taskmanager.memory.managed.size", MANAGED + "m");
    conf.put("taskmanager.memory.jvm-metaspace.size", METASPACE + "m");
    conf.put("taskmanager.memory.jvm-overhead.min", "192m");
    conf.put("taskmanager.memory.jvm-overhead.max", "192m");
    conf.put("taskmanager.cpu.cores", Integer.toString(slots));
    // A killed TaskManager is noticed by its lost connections at once, by heartbeat at the latest.
    conf.put("heartbeat.interval", "2000");
    conf.put("heartbeat.timeout", "20000");
    conf.put("restart-strategy.type", "fixed-delay");
    // Enough attempts to outlast the heartbeat timeout, until which deployments to the killed
    // TaskManager fail too.
    conf.put("restart-strategy.fixed-delay.attempts", "60");
    conf.put("restart-strategy.fixed-delay.delay", "1s");
    // Spread the tasks over both TaskManagers, so that killing either fails the job.
    conf.put("taskmanager.load-balance.mode", "SLOTS");
    String checkpoints = dir.resolve("checkpoints").toUri().toString();
    conf.put("execution.checkpointing.dir", checkpoints);
    conf.put("state.checkpoints.dir", checkpoints); // Flink 1.20's name
    conf.put("web.upload.dir", Files.createDirectories(dir.resolve("web-upload")).toString());
    conf.put("io.tmp.dirs", Files.createDirectories(dir.resolve("jm-tmp")).toString());
    StringBuilder yaml = new StringBuilder();
    conf.forEach((k, v) -> yaml.append(k).append(": '").append(v).append("'\n"));
    Files.createDirectories(dir.resolve("conf"));
    Files.writeString(dir.resolve("conf/config.yaml"), yaml);
    Files.writeString(
        dir.resolve("conf/log4j.properties"),
        String.join(
            "\n",
            "rootLogger.level = INFO",
            "rootLogger.appenderRef.file.ref = file",
            "appender.file.type = File",
            "appender.file.name = file",
            "appender.file.fileName = ${sys:log.file}",
            "appender.file.layout.type = PatternLayout",
            "appender.file.layout.pattern = %d{HH:mm:ss,SSS} %-5p %-60c %x - %m%n",
            ""));
  }

  private Process startProcess(String name, List<String> memory, String main, String... args)
      throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(memory);
    // Few GC and JIT threads: the processes share a small machine with the build and each other.
    command.addAll(LEAN_JVM);
    command.addAll(jvmOptions);
    command.add("-Dlog.file=" + dir.resolve(name + ".log"));
    command.add("-Dlog4j.configurationFile=" + dir.resolve("conf/log4j.properties").toUri());
    command.add("-cp");
    command.add(classpath);
    command.add(main);
    command.add("--configDir");
    command.add(dir.resolve("conf").toString());
    command.addAll(Arrays.asList(args));
    Process process =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve(name + ".out").toFile())
            .start();
    processes.add(process);
    return process;
  }

  private URI rest(String path) {
    return URI.create("http://127.0.0.1:" + restPort + path);
  }

  private String send(HttpRequest request) {
    try {
      HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() / 100 != 2) {
        throw new IllegalStateException(
            request.method()
                + " "
                + request.uri()
                + ": "
                + response.statusCode()
                + " "
                + response.body());
      }
      return response.body();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
