import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;

/**
 * Runs the SQL statements of a file, one after another, on a local Flink cluster, waiting for each
 * to finish. Launched as a single-file source program by ShadedJarSqlIT with nothing on the
 * classpath but Flink's jars and the shaded connector.
 */
public class SqlScript {
  public static void main(String[] args) throws Exception {
    TableEnvironment sql = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
    for (String statement : Files.readString(Path.of(args[0])).split(";")) {
      if (statement.isBlank()) {
        continue;
      }
      java.util.regex.Matcher set =
          java.util.regex.Pattern.compile("(?is)SET\\s+'([^']+)'\\s*=\\s*'([^']*)'")
              .matcher(statement.strip());
      if (set.matches()) {
        // SET is a SQL client command, not a statement TableEnvironment runs.
        sql.getConfig().set(set.group(1), set.group(2));
        continue;
      }
      TableResult result = sql.executeSql(statement.strip());
      result.await();
      result.print();
    }
  }
}
