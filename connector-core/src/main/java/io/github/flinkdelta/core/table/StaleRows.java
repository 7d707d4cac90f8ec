package io.github.flinkdelta.core.table;

import io.delta.kernel.Snapshot;
import io.delta.kernel.engine.Engine;
import io.github.flinkdelta.core.deletion.RowPositions;
import io.github.flinkdelta.core.upsert.FileDeletes;
import io.github.flinkdelta.core.upsert.KeyColumns;
import io.github.flinkdelta.core.write.DataFile;
import io.github.flinkdelta.core.write.FileIds;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Settles an upsert commit's deletes that another writer made stale (it removed or rewrote their
 * file, or deleted their rows) by key instead of by position.
 *
 * <p>The rule: after the commit, every key the checkpoint touched has exactly the rows the
 * checkpoint wrote for it, or none. The touched keys are those of the checkpoint's new rows (read
 * back from its new files) and those it deleted outright ({@link FileDeletes#deletedKeys}). The
 * stale positions are dropped, and every live row of the snapshot with a touched key is deleted:
 * where another writer moved a key's row (a compaction), the moved row goes; where it deleted the
 * row, nothing is left to delete; where it wrote the key anew (an {@code UPDATE}), the checkpoint's
 * later change wins, as it would have without the other writer.
 *
 * <p>The cost is a read of the key columns of the whole snapshot, paid only by a commit with stale
 * deletes; the sink then rebuilds its key index so that later commits need none.
 */
final class StaleRows {

  private StaleRows() {}

  /**
   * The deletes of a commit of {@code files} onto {@code snapshot}, without the {@code stale}
   * positions and with every live row of a touched key instead.
   *
   * @param deletedKeys the keys the checkpoint deleted outright
   */
  static FileDeletes settle(
      Engine engine,
      Snapshot snapshot,
      KeyColumns keys,
      Iterable<DataFile> files,
      FileDeletes deletes,
      List<String> deletedKeys,
      Map<Long, RowPositions> stale) {
    FileDeletes settled = deletes.without(stale);
    Set<String> touched = new HashSet<>(deletedKeys);
    Set<Long> newFiles = new HashSet<>();
    for (DataFile file : files) {
      newFiles.add(FileIds.of(file.path()));
    }
    Map<Long, RowPositions> byFile = settled.byFile();
    TableKeys.scanFiles(
        engine,
        snapshot,
        keys,
        files,
        (key, fileId, position) -> {
          RowPositions deleted = byFile.get(fileId);
          if (deleted == null || !deleted.contains(position)) {
            touched.add(key);
          }
        });
    TableKeys.scan(
        engine,
        snapshot,
        keys,
        (key, fileId, position) -> {
          if (touched.contains(key) && !newFiles.contains(fileId)) {
            settled.add(fileId, position);
          }
        });
    return settled;
  }
}
