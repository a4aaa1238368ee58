/**
 * `vault status` and `vault reseal [--batch-size N]`: master-key rotation without downtime. The
 * service runs with the new key as SERVICE_MASTER_KEY and the old ones in SERVICE_MASTER_KEYS_PREVIOUS
 * (it opens under any, seals under the new one); `reseal` then moves every vault record to the new
 * key while the service keeps serving (api/src/vault/reseal-vault.ts), and says when the old keys can go. Only key
 * ids (fingerprints) are printed, never a key.
 */

import { DEFAULT_RESEAL_BATCH } from "@cpay/api/admin";
import type { resealVault } from "@cpay/api/vault-reseal";
import type { Command } from "commander";
import { CliError, EXIT } from "../cli-error";
import { printJson, printTable } from "../output";

/**
 * The database, the service's configuration and the vault code, loaded only when a vault command
 * runs: every other command (and each CLI process the tests start) skips their import cost.
 */
async function vaultModules() {
  const [{ openDatabase }, reseal, local] = await Promise.all([
    import("@cpay/ledger/database"),
    import("@cpay/api/vault-reseal"),
    import("../local-database"),
  ]);
  return { openDatabase, ...reseal, ...local };
}

/** Adds `vault status` and `vault reseal` to `program`. */
export function registerVaultCommands(program: Command): void {
  const vault = program
    .command("vault")
    .description(
      "the vault's master keys: which key seals how many records, and re-sealing under the current one",
    );

  vault
    .command("status")
    .description("records per master key id (reads DATABASE_URL with the service's environment)")
    .action(async (_options: unknown, command: Command) => {
      const { openDatabase, keysInUse, requireExistingDatabase, serviceConfigOf } = await vaultModules();
      const config = serviceConfigOf(command);
      requireExistingDatabase(config.databaseUrl);
      const db = await openDatabase(config.databaseUrl);
      try {
        const old = await keysInUse(db, config.masterKey.id);
        const json = command.optsWithGlobals<{ json?: boolean }>().json === true;
        if (json) {
          return printJson({
            current_key_id: config.masterKey.id,
            previous_key_ids: config.previousMasterKeys.map((key) => key.id),
            records_under_other_keys: old,
          });
        }
        console.log(`current master key id: ${config.masterKey.id}`);
        console.log(
          `previous key ids:      ${config.previousMasterKeys.map((key) => key.id).join(", ") || "(none)"}`,
        );
        if (old.length === 0) console.log("every vault record is sealed under the current key");
        else
          printTable(
            ["KEY ID", "RECORDS"],
            old.map((entry) => [entry.keyId, String(entry.rows)]),
          );
      } finally {
        await db.close();
      }
    });

  vault
    .command("reseal")
    .description("re-seal every vault record under SERVICE_MASTER_KEY, in batches, while the service runs")
    .option("--batch-size <n>", `records per transaction (default ${DEFAULT_RESEAL_BATCH})`)
    .action(async (options: { batchSize?: string }, command: Command) => {
      const batchSize = options.batchSize === undefined ? DEFAULT_RESEAL_BATCH : Number(options.batchSize);
      if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 10_000) {
        throw new CliError(`--batch-size must be 1..10000, got ${options.batchSize}`, EXIT.usage);
      }
      const {
        openDatabase,
        resealVault,
        earlierIdempotencyExpiry,
        requireExistingDatabase,
        serviceConfigOf,
      } = await vaultModules();
      const config = serviceConfigOf(command);
      requireExistingDatabase(config.databaseUrl);
      const startedAt = new Date().toISOString();
      const db = await openDatabase(config.databaseUrl);
      try {
        const report = await resealVault(
          db,
          { current: config.masterKey, previous: config.previousMasterKeys },
          { batchSize, onBatch: (done) => process.stderr.write(`[vault] ${done} records re-sealed\n`) },
        );
        const idempotencyUntil = await earlierIdempotencyExpiry(db, startedAt);
        const json = command.optsWithGlobals<{ json?: boolean }>().json === true;
        if (json) {
          printJson({
            current_key_id: config.masterKey.id,
            resealed: report.resealed,
            changed_meanwhile: report.changedMeanwhile,
            unopenable: report.unopenable,
            records_under_other_keys: report.remaining,
            earlier_idempotency_records_until: idempotencyUntil,
          });
        } else {
          printReport(config.masterKey.id, report, idempotencyUntil);
        }
        const left = report.remaining.reduce((sum, entry) => sum + entry.rows, 0);
        if (left > 0) {
          throw new CliError(
            `${left} records are still sealed under old keys, which are still needed: run vault reseal again with every old key in SERVICE_MASTER_KEYS_PREVIOUS`,
            EXIT.refused,
          );
        }
      } finally {
        await db.close();
      }
    });
}

function printReport(
  currentId: string,
  report: Awaited<ReturnType<typeof resealVault>>,
  idempotencyUntil: string | null,
): void {
  console.log(`re-sealed ${report.resealed} records under master key ${currentId}`);
  if (report.changedMeanwhile > 0) {
    console.log(
      `${report.changedMeanwhile} records changed by the service meanwhile (left as it wrote them)`,
    );
  }
  for (const row of report.unopenable) {
    console.log(
      `cannot open ${row.kind} of ${row.accountId}: sealed under ${row.keyId}, not a configured key`,
    );
  }
  if (report.remaining.length > 0) {
    printTable(
      ["KEY ID", "RECORDS STILL UNDER IT"],
      report.remaining.map((e) => [e.keyId, String(e.rows)]),
    );
    return;
  }
  console.log(`no vault record names an old key id: every record is sealed under ${currentId}`);
  console.log(
    idempotencyUntil === null
      ? "SERVICE_MASTER_KEYS_PREVIOUS can be dropped now"
      : `SERVICE_MASTER_KEYS_PREVIOUS can be dropped after ${idempotencyUntil}, when the last Idempotency-Key record made before this run expires`,
  );
}
