/**
 * Makes Helius push every transaction of the agent-policy program to our receiver: one raw webhook
 * per receiver URL, created the first time and brought back to the wanted settings on every start
 * (so a changed `authHeader` or program id, or a webhook Helius auto-disabled after failed
 * deliveries, is repaired by restarting the indexer rather than by hand in the dashboard).
 *
 * helius-sdk's webhook calls go to the Helius host whatever `baseUrl` says, with the API key in the
 * query string; tests stub `fetch`.
 */
import { createHelius } from "helius-sdk";

export interface EnsureHeliusWebhookInput {
  readonly apiKey: string;
  /** Where Helius POSTs: the public URL of the receiver's `/helius/webhook`. */
  readonly webhookUrl: string;
  /** Sent back by Helius in `Authorization`; the receiver's only proof a delivery is Helius'. */
  readonly authHeader: string;
  /** The agent-policy program: every transaction mentioning it is delivered. */
  readonly programId: string;
  readonly network: "mainnet" | "devnet";
}

/** What the webhook must say (raw: the getTransaction shape the receiver parses; all statuses). */
export function wantedHeliusWebhook(input: EnsureHeliusWebhookInput) {
  return {
    webhookURL: input.webhookUrl,
    webhookType: input.network === "devnet" ? "rawDevnet" : "raw",
    transactionTypes: ["ANY"],
    accountAddresses: [input.programId],
    authHeader: input.authHeader,
    // Failed transactions too, as the RPC walk lists them (with `err`): pushes match what it sees.
    txnStatus: "all",
  };
}

/**
 * Creates the webhook for `webhookUrl`, or updates the existing one (the first whose URL is exactly
 * `webhookUrl`) to the wanted settings and re-enables it if Helius disabled it. Returns its id.
 */
export async function ensureHeliusWebhook(input: EnsureHeliusWebhookInput): Promise<string> {
  // The SDK pastes the key into the URL unescaped: refuse anything that would change the URL.
  if (!/^[A-Za-z0-9_-]+$/.test(input.apiKey)) {
    throw new RangeError("the Helius API key must be non-empty letters, digits, '-' or '_'");
  }
  if (input.authHeader.length === 0) throw new RangeError("authHeader must not be empty");
  const helius = createHelius({ apiKey: input.apiKey, network: input.network });
  const wanted = wantedHeliusWebhook(input);
  const existing = (await helius.webhooks.getAll()).find(
    (webhook) => webhook.webhookURL === input.webhookUrl,
  );
  if (existing === undefined) {
    const created = await helius.webhooks.create(wanted);
    return created.webhookID;
  }
  await helius.webhooks.update(existing.webhookID, wanted);
  if (existing.active === false) await helius.webhooks.toggle(existing.webhookID, true);
  return existing.webhookID;
}
