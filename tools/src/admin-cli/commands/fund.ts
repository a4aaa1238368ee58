/**
 * `fund <handle> <usdg> [--public <usdg>]`: the test cluster's USDG faucet. Mints `<usdg>` into the
 * account's confidential balance and `--public` into its public one. There is no faucet for live
 * (mainnet-beta) funds: this only ever mints on the service's test cluster.
 */
import type { Command } from "commander";
import type { AccountView } from "../admin-views";
import { CliError, EXIT } from "../cli-error";
import { contextOf, handleSegment } from "../command-context";
import { printJson } from "../output";

/** Adds `fund` to `program`. */
export function registerFundCommand(program: Command): void {
  program
    .command("fund")
    .description("test cluster faucet: mint USDG into an account (confidential, and --public)")
    .argument("<handle>", "the account's handle (agents too: @owner/name)")
    .argument("<usdg>", "USDG for the confidential balance, e.g. 100 or 12.5 (0 for none)")
    .option("--public <usdg>", "USDG for the public balance", "0")
    .action(async (handle: string, usdg: string, options: { public: string }, command: Command) => {
      await checkAmount(usdg, "<usdg>");
      await checkAmount(options.public, "--public");
      const { admin, json } = contextOf(command);
      const answer = await admin.request<{ account: AccountView }>(
        "POST",
        `/admin/accounts/${handleSegment(handle)}/fund`,
        { confidential: usdg, public: options.public },
      );
      if (json) return printJson(answer);
      console.log(
        `funded ${answer.account.handle}: ${usdg} USDG confidential, ${options.public} USDG public`,
      );
    });
}

/** The service checks again; this only turns a typo into a usage error before any request. */
async function checkAmount(value: string, name: string): Promise<void> {
  const { AmountError, parseDecimalAmount } = await import("@cpay/sdk");
  try {
    parseDecimalAmount(value, 6);
  } catch (error) {
    if (error instanceof AmountError) throw new CliError(`${name} ${error.message}`, EXIT.usage);
    throw error;
  }
}
