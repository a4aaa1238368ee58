/** `/v1/accounts/me` contracts (spec 2.2, 2.6, 4.9, 4.10). */
import { z } from "zod";
import { ZBase58Address, ZTimestamp, zId } from "./common";

export const ZAccountType = z.enum(["personal", "business", "agent"]);
export const ZKycStatus = z.enum(["unverified", "pending", "verified", "enhanced"]);

/**
 * Whether the account's USDG token account can take part in confidential transfers now, as the
 * chain says: `awaiting_approval` is a configured account on a mint whose issuer approves each one
 * (public transfers work meanwhile); the last three stop incoming confidential credits only.
 */
export const ZConfidentialStatus = z
  .enum([
    "ready",
    "awaiting_approval",
    "not_configured",
    "frozen",
    "confidential_credits_disabled",
    "pending_credits_full",
  ])
  .meta({ id: "ConfidentialStatus" });
export type TConfidentialStatus = z.infer<typeof ZConfidentialStatus>;

export const ZAccount = z
  .object({
    account_id: zId("acct"),
    handle: z.string(),
    type: ZAccountType,
    public_key: ZBase58Address,
    kyc_status: ZKycStatus,
    created_at: ZTimestamp,
    confidential_status: ZConfidentialStatus.optional().meta({
      description:
        "GET /v1/accounts/me only, read from the chain (absent when the cluster could not be read): `ready`, or why confidential transfers to or from the account cannot run now. `awaiting_approval`: the USDG mint requires its issuer to approve each confidential account and has not yet approved this one; it becomes `ready` by itself once approved. Public transfers work meanwhile.",
    }),
    elgamal_pubkey: z.string().nullable().optional().meta({
      description:
        "GET /v1/accounts/me only: the account's ElGamal public key (base64, 32 bytes), so a client can tell whether a secret it holds is this account's. Null when the account has no confidential keys.",
    }),
  })
  .meta({ id: "Account" });
export type TAccount = z.infer<typeof ZAccount>;

/**
 * The balance read (spec 4.10): with no proof, `decryption_proof` absent. The proof travels in this
 * GET body only: it carries the amount, so an `X-Decryption-Proof` header is refused (400).
 */
export const ZBalancesRequest = z
  .strictObject({
    decryption_proof: z.string().min(1).max(1024).optional().meta({
      description:
        "Base64 balance proof made client-side (`createBalanceProof`). Only here, in the GET body: it carries the amount, so the same proof in an `X-Decryption-Proof` header is refused with 400 `invalid_request`.",
    }),
  })
  .meta({ id: "BalancesRequest" });

/**
 * One entry per asset and balance kind. `confidential: true` is the Token-2022 confidential
 * balance (available + incoming), `false` the public token balance (SOL is always public).
 * `amount` appears only on the entry a valid proof was supplied for, and then `has_balance` is
 * absent; every other entry says only whether a non-zero balance is held.
 */
export const ZBalanceEntry = z
  .object({
    asset: z.string(),
    confidential: z.boolean(),
    has_balance: z.boolean().optional(),
    amount: z.string().optional().meta({ description: "Decimal string; only with a valid decryption proof" }),
    encrypted: z
      .object({
        available_balance: z.string().meta({ description: "ElGamal ciphertext, base64 (64 bytes)" }),
        decryptable_available_balance: z
          .string()
          .meta({ description: "AE ciphertext under the holder's AE key, base64 (36 bytes)" }),
      })
      .nullable()
      .optional()
      .meta({
        description:
          "Confidential entries of a read without a proof: the token account's on-chain ciphertexts, so the holder decrypts the balance and builds the balance proof client-side. Null when the account is not configured for confidential transfers.",
      }),
  })
  .meta({ id: "BalanceEntry" });

export const ZBalances = z.object({ balances: z.array(ZBalanceEntry) }).meta({ id: "Balances" });
export type TBalances = z.infer<typeof ZBalances>;
