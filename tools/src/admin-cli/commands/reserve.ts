/**
 * `reserve [--day YYYY-MM-DD]`: what the fee reserve lost for each account that day (fees plus
 * rent that may not come back; an agent's spend is its owner's) against the daily budget, and the
 * rent it has advanced for it and not got back yet (receipts, holds) against the advance cap.
 */
import type { Command } from "commander";
import type { ReserveSpendView } from "../admin-views";
import { contextOf } from "../command-context";
import { printJson, printTable } from "../output";

/** Adds `reserve` to `program`. */
export function registerReserveCommand(program: Command): void {
  program
    .command("reserve")
    .description(
      "the fee reserve's loss per account today (or --day) against the daily budget, and rent advanced now",
    )
    .option("--day <day>", "a UTC day, YYYY-MM-DD (default: today)")
    .action(async (options: { day?: string }, command: Command) => {
      const { admin, json } = contextOf(command);
      const query = options.day === undefined ? "" : `?day=${encodeURIComponent(options.day)}`;
      const answer = await admin.request<ReserveSpendView>("GET", `/admin/reserve${query}`);
      if (json) return printJson(answer);
      console.log(
        `fee reserve spend on ${answer.day} (UTC); budget ${answer.budget_lamports} lamports lost per account a day, advance cap ${answer.advance_cap_lamports} lamports per account`,
      );
      printTable(
        ["HANDLE", "ACCOUNT ID", "LOST (LAMPORTS)", "LEFT (LAMPORTS)", "ADVANCED NOW (LAMPORTS)"],
        answer.accounts.map((a) => [
          a.handle ?? "-",
          a.account_id,
          a.spent_lamports,
          a.left_lamports,
          a.advanced_lamports,
        ]),
      );
    });
}
