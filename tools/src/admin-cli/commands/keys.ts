/**
 * `keys issue | list | revoke | usage` (spec section 5: named keys shown once, last use, revocation
 * effective immediately, per-key usage). `agents keys issue` reuses `issueKey` for agent handles.
 */
import type { Command } from "commander";
import type { AccountView, IssuedKeyAnswer, KeyAnswer, KeyView } from "../admin-views";
import { CliError, EXIT } from "../cli-error";
import { contextOf, handleSegment } from "../command-context";
import { printJson, printTable } from "../output";

/** Adds the `keys` command group to `program`. */
export function registerKeyCommands(program: Command): void {
  const keys = program.command("keys").description("API keys: issue, list, revoke, usage");

  keys
    .command("issue")
    .description("issue an API key for an account (the key is printed once)")
    .argument("<handle>", "the account's handle (an agent's: @owner/name)")
    .requiredOption("--name <name>", "a name to recognise the key by")
    .option(
      "--live",
      "a svc_live_ key (mainnet-beta) instead of svc_test_ (issued where --environment says: live, once a live environment is configured)",
    )
    .action(issueKey);

  keys
    .command("list")
    .description("list an account's keys with last use and usage")
    .argument("<handle>", "the account's handle")
    .action(async (handle: string, _options: unknown, command: Command) => {
      const { admin, json } = contextOf(command);
      const answer = await admin.request<{ account: AccountView; keys: KeyView[] }>(
        "GET",
        `/admin/accounts/${handleSegment(handle)}/keys`,
      );
      if (json) return printJson(answer);
      console.log(`keys of ${answer.account.handle}:`);
      printTable(
        [
          "KEY ID",
          "NAME",
          "KEY",
          "CREATED",
          "LAST USED",
          "REVOKED",
          "REQUESTS",
          "TRANSFERS",
          "TOTAL (ENCRYPTED)",
        ],
        answer.keys.map((key) => [
          key.id,
          key.name,
          key.display,
          key.created_at,
          key.last_used_at ?? "never",
          key.revoked_at ?? "-",
          String(key.request_count),
          String(key.transfer_count),
          key.transferred_total_encrypted === null
            ? "-"
            : `${key.transferred_total_encrypted.slice(0, 16)}...`,
        ]),
      );
      console.log("(totals are encrypted to the account holder: `keys usage <key_id> --secret <secret>`)");
    });

  keys
    .command("revoke")
    .description("revoke a key: refused from the very next request")
    .argument("<key_id>", "the key's id (key_...)")
    .action(async (keyId: string, _options: unknown, command: Command) => {
      const { admin, json } = contextOf(command);
      const answer = await admin.request<{ key: KeyView }>(
        "POST",
        `/admin/keys/${encodeURIComponent(keyId)}/revoke`,
      );
      if (json) return printJson(answer);
      console.log(`revoked ${answer.key.id} (${answer.key.display}) at ${answer.key.revoked_at}`);
    });

  keys
    .command("usage")
    .description("a key's usage; with --secret, its total transferred decrypted here, on this machine")
    .argument("<key_id>", "the key's id (key_...)")
    .option("--secret <secret>", "the account's confidential secret (an agent's: its owner's)")
    .action(async (keyId: string, options: { secret?: string }, command: Command) => {
      const { admin, json } = contextOf(command);
      const { key, account } = await admin.request<KeyAnswer>(
        "GET",
        `/admin/keys/${encodeURIComponent(keyId)}`,
      );
      // Loaded only here: the confidential engine (zk-sdk) is most of the CLI's start-up time.
      const totalUsdg =
        options.secret === undefined
          ? null
          : await (await import("../decrypt-key-usage")).decryptTransferredTotalUsdg({
              encryptedTotal: key.transferred_total_encrypted,
              account,
              secret: options.secret,
            });
      if (json) return printJson({ key, account, transferred_total_usdg: totalUsdg });
      console.log(
        [
          `${key.id} (${key.name}, ${key.display}) of ${account.handle}`,
          `  created:      ${key.created_at}`,
          `  last used:    ${key.last_used_at ?? "never"}`,
          `  revoked:      ${key.revoked_at ?? "no"}`,
          `  requests:     ${key.request_count}`,
          `  transfers:    ${key.transfer_count}`,
          totalUsdg === null
            ? "  transferred:  encrypted (pass --secret <confidential secret> to decrypt it here)"
            : `  transferred:  ${totalUsdg} USDG (decrypted locally)`,
        ].join("\n"),
      );
    });
}

/** `keys issue` and `agents keys issue`: prints the key once. */
export async function issueKey(handle: string, options: { name: string; live?: boolean }, command: Command) {
  const { admin, json } = contextOf(command);
  if (options.name.trim() === "") throw new CliError("--name must not be empty", EXIT.usage);
  const answer = await admin.request<IssuedKeyAnswer>(
    "POST",
    `/admin/accounts/${handleSegment(handle)}/keys`,
    {
      name: options.name,
      // Unset: the key of the environment the request acts on (--environment).
      ...(options.live ? { environment: "live" } : {}),
    },
  );
  if (json) return printJson(answer);
  console.log(
    [
      `issued ${answer.key.id} (${answer.key.name}) for ${answer.account.handle}`,
      "  API key — shown ONCE, only its hash is stored:",
      `    ${answer.value}`,
      ...(answer.key.environment === "live" && !answer.live_mode_available
        ? [
            "  note: this service cannot reach mainnet-beta: it refuses svc_live_ keys (403 live_mode_unavailable)",
          ]
        : []),
    ].join("\n"),
  );
}
