/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.github.flinkdelta.it.support;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.config.Property;

/**
 * Captures every log event of the JVM, at every level, with its stack trace, while open. The
 * MiniCluster runs in the test's JVM, so this sees the job's logs too.
 */
public final class LogCapture implements AutoCloseable {

  private final StringBuffer captured = new StringBuffer();
  private final Appender appender = new Appender();

  public LogCapture() {
    LoggerContext context = (LoggerContext) LogManager.getContext(false);
    Configuration config = context.getConfiguration();
    appender.start();
    config.addAppender(appender);
    LoggerConfig root = config.getRootLogger();
    root.addAppender(appender, Level.ALL, null);
    root.setLevel(Level.ALL);
    config
        .getLoggers()
        .values()
        .forEach(
            logger -> {
              logger.addAppender(appender, Level.ALL, null);
              logger.setLevel(Level.ALL);
            });
    context.updateLoggers();
  }

  private LogCapture(String loggerName, Level level) {
    LoggerContext context = (LoggerContext) LogManager.getContext(false);
    Configuration config = context.getConfiguration();
    appender.start();
    config.addAppender(appender);
    LoggerConfig logger =
        LoggerConfig.newBuilder()
            .withLoggerName(loggerName)
            .withLevel(level)
            .withAdditivity(true)
            .withConfig(config)
            .build();
    logger.addAppender(appender, level, null);
    config.addLogger(loggerName, logger);
    context.updateLoggers();
  }

  /**
   * Captures the events of one logger (and its children) at {@code level} and above, leaving every
   * other logger and the console as they are.
   */
  public static LogCapture of(String loggerName, Level level) {
    return new LogCapture(loggerName, level);
  }

  public String text() {
    return captured.toString();
  }

  @Override
  public void close() {
    appender.stop();
    // Reloads the logging configuration from its file: levels and appenders as they were.
    ((LoggerContext) LogManager.getContext(false)).reconfigure();
  }

  private final class Appender extends AbstractAppender {
    Appender() {
      super("capture", null, null, true, Property.EMPTY_ARRAY);
    }

    @Override
    public void append(LogEvent event) {
      captured.append(event.getLoggerName()).append(' ');
      captured.append(event.getMessage().getFormattedMessage()).append('\n');
      if (event.getThrown() != null) {
        StringWriter trace = new StringWriter();
        event.getThrown().printStackTrace(new PrintWriter(trace));
        captured.append(trace).append('\n');
      }
    }
  }
}
