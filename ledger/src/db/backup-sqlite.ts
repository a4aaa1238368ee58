/**
 * An online backup of the SQLite database, consistent while the service writes: SQLite's backup API
 * (better-sqlite3 `backup`) copies the pages of one committed state. It is asked to copy every page
 * in one step, so the copy is a single read transaction: in WAL mode (how the service opens the
 * file) that never blocks the service's writers, and no write can land between two steps (which
 * would make SQLite start the copy over, forever under a steady write load). The copy is
 * written beside the destination and renamed into place only after it passed the restore check
 * (open it, `PRAGMA integrity_check`, count every table's rows), so a file at the destination is
 * always a good backup.
 */
import { existsSync, renameSync, rmSync } from "node:fs";
import SqliteDatabase from "better-sqlite3";

/** The most pages better-sqlite3 lets one backup step copy: every page of any real database. */
const ALL_PAGES = 0x7fffffff;

export interface SqliteBackupReport {
  readonly destination: string;
  readonly bytes: number;
  /** Rows per table in the copy, as the restore check counted them. */
  readonly tables: readonly { readonly name: string; readonly rows: number }[];
}

/** Copies the SQLite database at `source` to `destination` (which must not exist yet) and checks the copy. */
export async function backupSqlite(source: string, destination: string): Promise<SqliteBackupReport> {
  if (!existsSync(source)) throw new Error(`no SQLite database at ${source}`);
  if (existsSync(destination)) throw new Error(`${destination} exists already: choose a new file`);
  const partial = `${destination}.partial`;
  rmSync(partial, { force: true });
  const live = new SqliteDatabase(source, { fileMustExist: true });
  try {
    live.pragma("busy_timeout = 5000");
    await live.backup(partial, { progress: () => ALL_PAGES });
  } finally {
    live.close();
  }
  try {
    const report = checkCopy(partial);
    renameSync(partial, destination);
    return { ...report, destination };
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
}

/** The restore check: the copy opens on its own, is intact, and every table can be read. */
function checkCopy(file: string): Omit<SqliteBackupReport, "destination"> {
  const copy = new SqliteDatabase(file, { readonly: true, fileMustExist: true });
  try {
    const integrity = copy.pragma("integrity_check", { simple: true });
    if (integrity !== "ok") throw new Error(`the copy failed its integrity check: ${String(integrity)}`);
    const names = copy
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
      )
      .pluck()
      .all() as string[];
    const tables = names.map((name) => ({
      name,
      rows: Number(
        copy
          .prepare(`SELECT count(*) FROM "${name.replaceAll('"', '""')}"`)
          .pluck()
          .get(),
      ),
    }));
    const pageCount = Number(copy.pragma("page_count", { simple: true }));
    const pageSize = Number(copy.pragma("page_size", { simple: true }));
    return { bytes: pageCount * pageSize, tables };
  } finally {
    copy.close();
  }
}
