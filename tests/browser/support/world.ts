/**
 * The one world of a browser-suite run, as the global setup made it and wrote it to the file named
 * by CPAY_BROWSER_WORLD: where the service answers, who is in it, what was sent, and what must
 * never cross the browser's network in plaintext.
 */
import { readFileSync } from "node:fs";

export interface BrowserWorld {
  /** `http://localhost:<port>`: the dashboard and `/v1` (WebAuthn needs a host name, not an IP). */
  readonly baseUrl: string;
  readonly adminUrl: string;
  readonly adminToken: string;
  /** The localnet's RPC URL: the explorer links of its transactions open through it. */
  readonly localnetRpcUrl: string;
  /** The API's SQLite database: the expiry test ages a session's row as 30 idle minutes would. */
  readonly databasePath: string;
  /** The signed-in account: business, KYC verified, funded. */
  readonly owner: {
    readonly handle: string;
    readonly apiKey: string;
    /** Its confidential secret, export format v1 (what the unlock step takes). */
    readonly secret: string;
    /** Its confidential balance (USDG decimal): nothing in the suite spends it after the seeding. */
    readonly confidentialBalance: string;
  };
  /** Another account: its secret is the "foreign secret" the unlock step must refuse; its own
   * enrollment link gives the passkey the revocation test revokes (the owner's stays usable). */
  readonly stranger: {
    readonly handle: string;
    readonly secret: string;
    readonly enrollmentLink: string | null;
  };
  /** The live environment's account (business, KYC verified, unfunded) and its first enrollment link. */
  readonly live: {
    readonly handle: string;
    readonly enrollmentLink: string;
  };
  readonly recipient: string;
  /** A service-custody agent of the owner whose policy holds transfers above a low threshold. */
  readonly agent: {
    readonly handle: string;
    readonly accountId: string;
    readonly apiKey: string;
    /** Its hold threshold (USDG, decimal). */
    readonly holdAbove: string;
  };
  /** A confirmed confidential transfer owner -> recipient, made over /v1 before the browser came. */
  readonly transfer: { readonly id: string; readonly amount: string; readonly memo: string };
  /** 100 public transfers of the owner made over /v1 just before `transfer` (their ids, amounts). */
  readonly bulkTransfers: readonly { readonly id: string; readonly amount: string }[];
  /** The one-time enrollment link for the owner's first passkey, or null if the API has none yet. */
  readonly enrollmentLink: string | null;
  /** Where the failing-then-healing webhook receiver listens, and its control (see webhook-receiver). */
  readonly webhookUrl: string;
  /** Every plaintext the network recorder refuses (amounts in each written form, memos, secrets). */
  readonly watched: readonly string[];
}

const WORLD_ENV = "CPAY_BROWSER_WORLD";

export function worldFile(): string {
  const path = process.env[WORLD_ENV];
  if (path === undefined)
    throw new Error(`${WORLD_ENV} is not set: run the suite through its playwright.config.ts`);
  return path;
}

export function setWorldFile(path: string): void {
  process.env[WORLD_ENV] = path;
}

let cached: BrowserWorld | null = null;

/** The world of this run (read once per worker). */
export function world(): BrowserWorld {
  cached ??= JSON.parse(readFileSync(worldFile(), "utf8")) as BrowserWorld;
  return cached;
}
