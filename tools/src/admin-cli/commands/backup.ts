/**
 * `backup <file>`: an online backup of the SQLite database (DATABASE_URL) while the service runs,
 * checked by opening the copy and counting its rows (@cpay/ledger/backup-sqlite). PostgreSQL is
 * backed up with its own tools (pg_dump / base backups with WAL archiving), as the operator page
 * describes; this command refuses a postgres:// URL rather than pretend.
 */
import { resolve } from "node:path";
import type { backupSqlite } from "@cpay/ledger/backup-sqlite";
import type { Command } from "commander";
import { CliError, EXIT } from "../cli-error";
import { printJson, printTable } from "../output";

/** Adds `backup` to `program`. */
export function registerBackupCommand(program: Command): void {
  program
    .command("backup")
    .description("copy the SQLite database to <file> while the service runs, then check the copy")
    .argument("<file>", "where the backup goes (must not exist)")
    .action(async (file: string, _options: unknown, command: Command) => {
      // Loaded on use: the other commands (and the CLI processes tests start) skip their cost.
      const [{ backupSqlite }, { databaseUrlOf, isPostgresUrl, requireExistingDatabase }] = await Promise.all(
        [import("@cpay/ledger/backup-sqlite"), import("../local-database")],
      );
      const databaseUrl = databaseUrlOf(command);
      if (isPostgresUrl(databaseUrl)) {
        throw new CliError(
          "DATABASE_URL is PostgreSQL: back it up with pg_dump or a base backup (docs/operating.md, Backups)",
          EXIT.usage,
        );
      }
      requireExistingDatabase(databaseUrl);
      let report: Awaited<ReturnType<typeof backupSqlite>>;
      try {
        report = await backupSqlite(databaseUrl, resolve(file));
      } catch (error) {
        throw new CliError(`backup failed: ${(error as Error).message}`, EXIT.refused);
      }
      if (command.optsWithGlobals<{ json?: boolean }>().json === true) return printJson(report);
      console.log(
        `backed up ${databaseUrl} to ${report.destination} (${report.bytes} bytes); the copy opens and is intact:`,
      );
      printTable(
        ["TABLE", "ROWS"],
        report.tables.map((table) => [table.name, String(table.rows)]),
      );
    });
}
