/**
 * The admin CLI as a function: `main.ts` runs it as a process; a test may call it in its own
 * process. The command tree and exit codes are documented in main.ts.
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

/**
 * The CLI's command tree; commander's own exits become exceptions, so `runCli` picks the code.
 * Subcommands copy the output settings when they are added, so `output` is set first.
 */
function buildProgram(output: CliOutput | undefined): Command {
  const program = new Command("cpay-admin");
  if (output !== undefined) program.configureOutput(output);
  program
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

/** Where commander writes its own help and usage errors (the process's stdout and stderr by default). */
export interface CliOutput {
  readonly writeOut: (text: string) => void;
  readonly writeErr: (text: string) => void;
}

/**
 * Runs the CLI on `argv` (process.argv form) and resolves to its exit code (EXIT in cli-error.ts).
 * Commands print with `console`; commander's help and usage errors go to `output`.
 */
export async function runCli(argv: readonly string[], output?: CliOutput): Promise<number> {
  try {
    await buildProgram(output).parseAsync([...argv]);
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
