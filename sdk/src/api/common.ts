/**
 * Shapes shared by every `/v1` contract: identifiers, timestamps, the error envelope and list
 * envelopes. One definition per shape: the server validates with these, the typed client parses
 * responses with them, and the OpenAPI document is generated from them (`openapi.ts`).
 */
import { z } from "zod";

/** An ISO 8601 timestamp in UTC with milliseconds, as the service writes them. */
export const ZTimestamp = z.iso.datetime({ offset: false }).meta({ description: "ISO 8601 timestamp (UTC)" });

/** `<prefix>_<26 lowercase base32 chars>`: the identifiers the service issues. */
export function zId(prefix: string) {
  return z
    .string()
    .regex(new RegExp(`^${prefix}_[a-z2-7]{26}$`))
    .meta({ description: `Identifier, shape \`${prefix}_<id>\`` });
}

export const ZBase58Address = z
  .string()
  .regex(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/)
  .meta({ description: "Base58 Solana address" });

export const ZSignature = z
  .string()
  .regex(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/)
  .meta({ description: "Base58 Solana transaction signature" });

/** A positive decimal amount as a string: digits, optionally a dot and more digits. */
export const ZDecimalAmount = z
  .string()
  .regex(/^(0|[1-9][0-9]{0,19})(\.[0-9]{1,18})?$/, 'must be a decimal string such as "12.50"')
  .meta({ description: 'Decimal string, for example `"12.50"`' });

/** Every error body (DESIGN section 7). `param` names the offending field when there is one. */
export const ZErrorBody = z
  .object({
    error: z.object({
      code: z.string(),
      message: z.string(),
      param: z.string().optional(),
      request_id: z.string(),
    }),
  })
  .meta({ id: "Error" });
export type TErrorBody = z.infer<typeof ZErrorBody>;

/** `limit`/`offset` paging (spec 4.3 and 8): default 20, maximum 100, offset from 0. */
export const ZPaging = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  offset: z.coerce.number().int().min(0).max(1_000_000_000).default(0),
});

/** The paging part of a list response. */
export const ZPage = z.object({
  total: z.number().int().min(0),
  limit: z.number().int(),
  offset: z.number().int(),
  has_more: z.boolean(),
});

/**
 * Beside a secret shown once (`signer_secret`, a webhook's `secret`): present, `true`, only on an
 * `Idempotency-Key` replay, whose secret field is then `null`. The secret was in the original
 * response and the service keeps no copy to show again.
 */
export const ZSecretAlreadyDelivered = z.literal(true).optional().meta({
  description:
    "Only on an Idempotency-Key replay (`Idempotent-Replayed: true`): the secret was returned by the original response and is not kept, so its field is null here",
});
