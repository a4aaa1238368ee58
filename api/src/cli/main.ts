#!/usr/bin/env -S npx tsx
/**
 * The admin CLI (`npm run admin -- <command>`, or `bash scripts/run.sh tsx api/src/cli/main.ts
 * <command>`): what the spec leaves to a dashboard — accounts and KYC, API keys and their usage,
 * the fee reserve's spend per account, the test faucet. It talks to the running service's admin listener (127.0.0.1:3001, admin token from
 * `data/admin.token`), because the embedded cluster lives inside that process. Secrets the service
 * hands out (an account's confidential secret, an API key) are printed once; a key's transferred
 * total is decrypted here, never by the service. Two commands work on the database itself, with the
 * service's environment (DATABASE_URL, the master keys), and need no admin listener: `vault`
 * (master-key rotation) and `backup` (an online SQLite backup).
 *
 * Exit codes: 0 done, 1 refused or failed by the service, 2 bad usage or input, 3 service unreachable.
 */
import { Command, CommanderError } from "commander";
import { CliError, EXIT } from "./cli-error";
import { registerAccountCommands } from "./commands/accounts";
import { registerAgentCommands } from "./commands/agents";
import { registerBackupCommand } from "./commands/backup";
import { registerFundCommand } from "./commands/fund";
import { registerKeyCommands } from "./commands/keys";
import { registerReserveCommand } from "./commands/reserve";
import { registerVaultCommands } from "./commands/vault";

/** The CLI's command tree; commander's own exits become exceptions, so `run` picks the code. */
function buildProgram(): Command {
  const program = new Command("cpay-admin")
    .description("administer a running cpay service (accounts, API keys, test faucet)")
    .option(
      "--admin-url <url>",
      "the admin listener (default $CPAY_ADMIN_URL or http://127.0.0.1:$ADMIN_PORT|3001)",
    )
    .option("--data-dir <dir>", "where the service keeps admin.token (default $CPAY_DATA_DIR or ./data)")
    .option(
      "--environment <test|live>",
      "the environment to act on: its own accounts and keys (default test)",
    )
    .option("--json", "print JSON instead of text")
    .exitOverride()
    .showHelpAfterError();
  registerAccountCommands(program);
  registerKeyCommands(program);
  registerAgentCommands(program);
  registerFundCommand(program);
  registerReserveCommand(program);
  registerVaultCommands(program);
  registerBackupCommand(program);
  return program;
}

/** Runs the CLI on `argv` (process.argv form); resolves to the exit code. */
async function run(argv: readonly string[]): Promise<number> {
  try {
    await buildProgram().parseAsync([...argv]);
    return EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version are not errors; commander has already printed what went wrong.
      return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    if (error instanceof CliError) {
      console.error(`error: ${error.message}`);
      return error.exitCode;
    }
    console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
    return EXIT.refused;
  }
}

process.exitCode = await run(process.argv);
