/**
 * `accounts create | list | set-kyc | enroll-link`: personal and business accounts, their KYC
 * status, and the one-time link with which the holder registers a passkey for the dashboard.
 */
import { Argument, type Command, Option } from "commander";
import type { AccountView, CreatedAccount, EnrollmentLinkAnswer } from "../admin-views";
import { contextOf, handleSegment } from "../command-context";
import { printJson, printTable } from "../output";

const KYC_STATUSES = ["unverified", "pending", "verified", "enhanced"];

/** Adds the `accounts` command group to `program`. */
export function registerAccountCommands(program: Command): void {
  const accounts = program.command("accounts").description("personal and business accounts");

  accounts
    .command("create")
    .description("create an account: wallet, confidential USDG account and on-chain @handle")
    .requiredOption("--handle <handle>", "the account's handle, e.g. alice or @alice")
    .addOption(
      new Option("--type <type>", "account type").choices(["personal", "business"]).default("personal"),
    )
    .addOption(
      new Option("--kyc <status>", "identity verification status")
        .choices(KYC_STATUSES)
        .default("unverified"),
    )
    .action(async (options: { handle: string; type: string; kyc: string }, command: Command) => {
      const { admin, json } = contextOf(command);
      const created = await admin.request<CreatedAccount>("POST", "/admin/accounts", {
        handle: options.handle,
        type: options.type,
        kyc_status: options.kyc,
      });
      if (json) return printJson(created);
      const { account } = created;
      console.log(
        [
          `created ${account.handle} (${account.type}, kyc ${account.kyc_status})`,
          `  account id:  ${account.account_id}`,
          `  public key:  ${account.public_key}`,
          "",
          "  confidential secret — shown ONCE, the service will never show it again. Store it safely:",
          "  it decrypts this account's amounts (and its agents') client-side, and makes balance proofs.",
          `    ${created.confidential_secret}`,
          "",
          ...enrollmentLinkLines(created),
        ].join("\n"),
      );
    });

  accounts
    .command("list")
    .description("list every account, agents included")
    .action(async (_options: unknown, command: Command) => {
      const { admin, json } = contextOf(command);
      const answer = await admin.request<{ accounts: AccountView[] }>("GET", "/admin/accounts");
      if (json) return printJson(answer);
      printTable(
        ["HANDLE", "TYPE", "KYC", "ACCOUNT ID", "PUBLIC KEY", "CREATED"],
        answer.accounts.map((a) => [
          a.handle,
          a.type,
          a.kyc_status,
          a.account_id,
          a.public_key,
          a.created_at,
        ]),
      );
    });

  accounts
    .command("enroll-link")
    .description("issue a new one-time dashboard enrollment link (earlier links stop working)")
    .argument("<handle>", "the account's handle")
    .action(async (handle: string, _options: unknown, command: Command) => {
      const { admin, json } = contextOf(command);
      const answer = await admin.request<EnrollmentLinkAnswer>(
        "POST",
        `/admin/accounts/${handleSegment(handle)}/enrollment-link`,
        {},
      );
      if (json) return printJson(answer);
      console.log([`${answer.account.handle}:`, ...enrollmentLinkLines(answer)].join("\n"));
    });

  accounts
    .command("set-kyc")
    .description("record an account's identity verification status")
    .argument("<handle>", "the account's handle")
    .addArgument(new Argument("<status>", "new status").choices(KYC_STATUSES))
    .action(async (handle: string, status: string, _options: unknown, command: Command) => {
      const { admin, json } = contextOf(command);
      const answer = await admin.request<{ account: AccountView }>(
        "POST",
        `/admin/accounts/${handleSegment(handle)}/kyc`,
        { kyc_status: status },
      );
      if (json) return printJson(answer);
      console.log(`${answer.account.handle}: kyc ${answer.account.kyc_status}`);
    });
}

/** How the CLI hands the holder a link: once, with what it does and until when. */
function enrollmentLinkLines(answer: {
  readonly enrollment_link: string;
  readonly enrollment_link_expires_at: string;
}): string[] {
  return [
    `  dashboard enrollment link — one use, until ${answer.enrollment_link_expires_at}. Hand it to the holder only:`,
    "  it registers a passkey that signs in to this account's dashboard.",
    `    ${answer.enrollment_link}`,
  ];
}
