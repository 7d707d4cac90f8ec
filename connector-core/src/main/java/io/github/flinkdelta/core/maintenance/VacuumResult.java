/*
 * Copyright 2026 the flink-delta authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package io.github.flinkdelta.core.maintenance;

import java.util.List;
import org.apache.flink.annotation.Internal;

/**
 * What one vacuum of a table did, or in a dry run would do.
 *
 * @param dryRun whether the files were only listed
 * @param deleted the files deleted (or to delete), relative to the table root
 * @param bytes their bytes
 * @param logFilesDeleted the expired log and checkpoint files deleted; 0 in a dry run
 */
@Internal
public record VacuumResult(boolean dryRun, List<String> deleted, long bytes, long logFilesDeleted) {

  public VacuumResult {
    deleted = List.copyOf(deleted);
  }
}
