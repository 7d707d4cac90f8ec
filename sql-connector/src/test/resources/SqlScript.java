/*
 * Copyright 2026 the flink-delta authors
 * SPDX-License-Identifier: Apache-2.0
 */
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;

/**
 * Runs the SQL statements of a file, one after another, waiting for each to finish. Launched as a
 * single-file source program by ShadedJarSqlIT and SessionClusterIT with nothing on the classpath
 * but Flink's jars and the shaded connector. The SETs before the first statement configure the
 * environment as it is created (so 'execution.target' = 'remote' and 'rest.port' send the jobs to a
 * running cluster); later SETs change the table configuration. Prints each job's id as "job-id:".
 */
public class SqlScript {
  private static final Pattern SET = Pattern.compile("(?is)SET\\s+'([^']+)'\\s*=\\s*'([^']*)'");

  public static void main(String[] args) throws Exception {
    Configuration leading = new Configuration();
    TableEnvironment sql = null;
    for (String statement : Files.readString(Path.of(args[0])).split(";")) {
      if (statement.isBlank()) {
        continue;
      }
      Matcher set = SET.matcher(statement.strip());
      if (set.matches()) {
        // SET is a SQL client command, not a statement TableEnvironment runs.
        if (sql == null) {
          leading.setString(set.group(1), set.group(2));
        } else {
          sql.getConfig().set(set.group(1), set.group(2));
        }
        continue;
      }
      if (sql == null) {
        sql =
            TableEnvironment.create(
                EnvironmentSettings.newInstance()
                    .inStreamingMode()
                    .withConfiguration(leading)
                    .build());
      }
      TableResult result = sql.executeSql(statement.strip());
      result.getJobClient().ifPresent(job -> System.out.println("job-id: " + job.getJobID()));
      result.await();
      result.print();
    }
  }
}
