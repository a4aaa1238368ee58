/**
 * Ties a database to one chain. Rows describe a chain: accounts, holds, transfers. The database
 * records the genesis hash of the chain it was made against, and refuses to serve another one: a
 * localnet started on a new chain store, or devnet instead of the localnet, would make every row a lie.
 * Every chain has a genesis hash of its own (the localnet draws a random one per new chain), and a
 * restart of the same chain keeps it, so a restart of the service finds its rows again.
 *
 * A SQLite file is held by one API process at a time (process-lock.ts): a second one is refused
 * before it reads anything; the lock goes with `db.close()` or the process.
 */
import { recordedGenesisHash, recordGenesisHash } from "@cpay/ledger/chain-identity";
import { ConfigError } from "@cpay/ledger/config";
import { type Database, openDatabase } from "@cpay/ledger/database";
import { lockDatabaseFile } from "@cpay/ledger/process-lock";
import { sql } from "drizzle-orm";

/**
 * Opens (and migrates) the database at `url` for the chain with `genesisHash`, or refuses; `setting`
 * names the variable `url` came from (`LIVE_DATABASE_URL` for the live environment).
 */
export async function openDatabaseForChain(
  url: string,
  genesisHash: string,
  setting = "DATABASE_URL",
): Promise<Database> {
  const lock = isSqliteFile(url) ? lockDatabaseFile(url) : null;
  try {
    const db = await openDatabase(url);
    try {
      await bindToChain(db, url, genesisHash, setting);
    } catch (error) {
      await db.close();
      throw error;
    }
    if (lock === null) return db;
    const close = async () => {
      await db.close();
      lock.release();
    };
    return { ...db, close };
  } catch (error) {
    lock?.release();
    throw error;
  }
}

function isSqliteFile(url: string): boolean {
  return !/^postgres(ql)?:\/\//.test(url) && url !== ":memory:";
}

async function bindToChain(db: Database, url: string, genesisHash: string, setting: string): Promise<void> {
  const recorded = await recordedGenesisHash(db);
  const where = db.dialect === "sqlite" ? `${url} (${setting})` : setting;
  if (recorded !== null && recorded !== genesisHash) {
    throw new ConfigError(
      `the database at ${where} belongs to the chain with genesis ${recorded}, not to this one (${genesisHash}): ` +
        "its accounts and transfers describe that chain. Point the service at that chain again, or at an empty database",
    );
  }
  if (recorded === null && (await hasAccounts(db))) {
    throw new ConfigError(
      `the database at ${where} has accounts but records no chain: it was made by an earlier version against ` +
        `a chain that is gone; point ${setting} at an empty database`,
    );
  }
  await db.transaction((tx) => recordGenesisHash(tx, db.tables, genesisHash));
}

async function hasAccounts(db: Database): Promise<boolean> {
  const [row] = await db.read((q) => q.select({ n: sql<number>`count(*)` }).from(db.tables.accounts));
  return Number(row?.n) > 0;
}
