/**
 * The input fields the tools share, each with the description a model reads to fill it in: the
 * grammar of amounts and recipients, what `confidential` changes, and how an idempotency key makes
 * a retried payment pay once. Shapes only: the use cases behind the tools check the values again
 * (the `/v1` contracts, the program), so a field here may be looser than the rule, never stricter.
 */
import { MAX_API_MEMO_BYTES } from "@cpay/sdk/api";
import { z } from "zod";

/** At most 6 decimals: USDG's, the one asset served. */
const AMOUNT = /^(0|[1-9][0-9]{0,13})(\.[0-9]{1,6})?$/;

export const amountField = z
  .string()
  .regex(AMOUNT, 'must be a decimal string with at most 6 decimals, such as "12.50"')
  .describe(
    'The amount, in units of `asset`, as a decimal STRING such as "12.50" or "0.000001": digits, optionally a dot and 1 to 6 decimals; no sign, exponent, spaces or thousands separators. Never a JSON number.',
  );

export const assetField = z
  .enum(["USDG"])
  .default("USDG")
  .describe('The asset to pay in. Only "USDG" (a USD stablecoin with 6 decimals) is served.');

export const recipientField = z
  .string()
  .min(1)
  .max(120)
  .describe(
    'Who is paid: "@handle" of an account (e.g. "@merchant"), "@owner/agent" of an agent, or a base58 Solana wallet address. Handles are case-insensitive.',
  );

export const confidentialField = z
  .boolean()
  .default(true)
  .describe(
    "true (default): a confidential transfer, whose amount only the sender and the recipient can read on-chain. false: a public transfer, whose amount anyone can read on-chain.",
  );

/** `/v1`'s limit, in bytes: a memo the schema admits is one `/v1` admits, and the other way round. */
export const memoField = z
  .string()
  .max(MAX_API_MEMO_BYTES)
  .refine((memo) => new TextEncoder().encode(memo).length <= MAX_API_MEMO_BYTES, {
    message: `must be at most ${MAX_API_MEMO_BYTES} bytes of UTF-8`,
  })
  .optional()
  .describe(
    "An optional note for the recipient, at most 200 bytes of UTF-8, encrypted so that only the two parties can read it.",
  );

/** The `/v1` Idempotency-Key grammar: what the remote server passes on as that header. */
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

export const idempotencyKeyField = z
  .string()
  .regex(IDEMPOTENCY_KEY, "must be 1 to 255 printable ASCII characters without spaces")
  .describe(
    'A key you choose for THIS payment, e.g. "order-1001" or a UUID. If a call fails or you are unsure it went through, call again with the SAME key and the same arguments: it pays at most once and answers with the same transfer. Use a NEW key for every new payment.',
  );

/** An identifier the service issued: `<prefix>_` and 26 lowercase base32 characters. */
export function idField(prefix: string, what: string) {
  return z
    .string()
    .regex(
      new RegExp(`^${prefix}_[a-z2-7]{26}$`),
      `must be an id such as ${prefix}_ followed by 26 characters`,
    )
    .describe(what);
}

export const transferIdField = idField(
  "tr",
  'The transfer\'s id, "tr_..." as `pay` or `list_transfers` answered it.',
);

export const pagingFields = {
  limit: z
    .number()
    .int()
    .min(1)
    .max(100)
    .default(20)
    .describe("How many to return, newest first (1 to 100, default 20)."),
  offset: z.number().int().min(0).default(0).describe("How many of the newest to skip (default 0)."),
};

export const transferStatusField = z
  .enum(["pending", "confirmed", "failed"])
  .optional()
  .describe(
    'Only transfers in this state: "pending" (submitted or held, not yet final), "confirmed" (final on-chain), "failed" (nothing moved).',
  );
