/** Agent accounts and spend policies (spec 2.3, 2.4, 4.4-4.6, 4.11). */
import { z } from "zod";
import { ZBase58Address, ZSecretAlreadyDelivered, ZTimestamp, zId } from "./common";

/** A limit in USDG: a JSON number or, for exactness, a decimal string. */
const ZUsdgLimit = z
  .union([z.number(), z.string()])
  .meta({ description: "Amount in USDG (number or decimal string)" });

/**
 * Policy fields as accepted. Their values are validated by the SDK's policy codec (the exact rules
 * the program applies), so this contract checks only shapes; a bad value is `400 invalid_policy`.
 * Required on creation: the three limits and `assets`; `allowed_recipients` defaults to `[]` (any
 * recipient), `active_hours` to `"00:00-00:00"` (all day), `approval_window_seconds` to 86400.
 */
const policyFields = {
  daily_limit_usdg: ZUsdgLimit,
  per_transaction_limit_usdg: ZUsdgLimit,
  hitl_threshold_usdg: ZUsdgLimit,
  assets: z.array(z.string()),
  allowed_recipients: z.array(z.string()),
  active_hours: z.string().meta({ description: "`HH:MM-HH:MM` in UTC; equal ends mean all day" }),
  approval_window_seconds: z
    .number()
    .int()
    .meta({ description: "How long a held transaction waits (default 86400)" }),
};

export const ZSpendPolicyInput = z
  .strictObject({
    daily_limit_usdg: policyFields.daily_limit_usdg,
    per_transaction_limit_usdg: policyFields.per_transaction_limit_usdg,
    hitl_threshold_usdg: policyFields.hitl_threshold_usdg,
    assets: policyFields.assets,
    allowed_recipients: policyFields.allowed_recipients.optional(),
    active_hours: policyFields.active_hours.optional(),
    approval_window_seconds: policyFields.approval_window_seconds.optional(),
  })
  .meta({ id: "SpendPolicyInput" });

export const ZSpendPolicyUpdate = z
  .strictObject({
    daily_limit_usdg: policyFields.daily_limit_usdg.optional(),
    per_transaction_limit_usdg: policyFields.per_transaction_limit_usdg.optional(),
    hitl_threshold_usdg: policyFields.hitl_threshold_usdg.optional(),
    assets: policyFields.assets.optional(),
    allowed_recipients: policyFields.allowed_recipients.optional(),
    active_hours: policyFields.active_hours.optional(),
    approval_window_seconds: policyFields.approval_window_seconds.optional(),
  })
  .meta({ id: "SpendPolicyUpdate" });
export type TSpendPolicyUpdate = z.input<typeof ZSpendPolicyUpdate>;

export const ZCreateAgentRequest = z
  .strictObject({
    name: z
      .string()
      .min(1)
      .max(64)
      .meta({ description: "The agent's name; its handle is `@<owner>/<name>`" }),
    spend_policy: ZSpendPolicyInput,
    custody: z.enum(["service", "self"]).default("service").meta({
      description:
        "`service` (default): the service holds the agent's signer and signs its transfers. `self`: the signer's secret is returned once, in `signer_secret`, and forgotten; the agent signs through its PDA itself and submits through POST /v1/relay",
    }),
  })
  .meta({ id: "CreateAgentRequest" });
export type TCreateAgentRequest = z.input<typeof ZCreateAgentRequest>;

export const ZAgent = z
  .object({
    account_id: zId("acct"),
    handle: z.string(),
    public_key: ZBase58Address,
    status: z.literal("active"),
    spend_policy_id: zId("policy"),
    custody: z.enum(["service", "self"]),
  })
  .meta({ id: "Agent" });
export type TAgent = z.infer<typeof ZAgent>;

/** The create response: a self-custody agent's signer secret appears here once, never again. */
export const ZCreatedAgent = ZAgent.extend({
  signer_secret: z.string().nullable().meta({
    description:
      "Base58 of the signer's 32-byte ed25519 seed (self custody only); shown once: null on an Idempotency-Key replay",
  }),
  secret_already_delivered: ZSecretAlreadyDelivered,
}).meta({ id: "CreatedAgent" });
export type TCreatedAgent = z.infer<typeof ZCreatedAgent>;

export const ZAgentList = z.object({ agents: z.array(ZAgent) }).meta({ id: "AgentList" });

/** The policy as read from the agent's on-chain policy account (spec 4.6). */
export const ZSpendPolicy = z
  .object({
    policy_id: zId("policy"),
    daily_limit_usdg: z.number(),
    per_transaction_limit_usdg: z.number(),
    allowed_recipients: z.array(z.string()),
    assets: z.array(z.string()),
    active_hours: z.string(),
    hitl_threshold_usdg: z.number(),
    approval_window_seconds: z.number().int(),
    updated_at: ZTimestamp,
  })
  .meta({ id: "SpendPolicy" });
export type TSpendPolicy = z.infer<typeof ZSpendPolicy>;

/**
 * What an agent has spent today, for its owner to read in the browser (`@cpay/sdk/sealed`
 * `remainingBudgetOf`). No amount in plaintext: the public spend comes sealed to the owner, the
 * confidential spend as the chain's ciphertexts under the agent's keys (which the owner derives).
 */
export const ZAgentBudget = z
  .object({
    account_id: zId("acct"),
    handle: z.string(),
    day: z.iso.date().meta({
      description: "The cluster's UTC day (its Clock), the day the program counts spends on",
    }),
    daily_limit_usdg: z.number(),
    per_transaction_limit_usdg: z.number(),
    public_spent_sealed: z.base64().length(420).meta({
      description:
        "The public-path spend counted today, sealed to the owner's ElGamal key from a one-time key (base64, 420 characters; `openTransferDetails` with the owner's keys, bound to `budget:<account_id>:<day>`). 0 when the counters are of an earlier day",
    }),
    confidential_spent: z
      .object({
        ciphertext: z
          .base64()
          .length(88)
          .meta({ description: "ElGamal ciphertext of today's confidential spend (64 bytes)" }),
        decryptable: z.base64().length(48).meta({
          description: "Its AE copy under the agent's AE key (36 bytes), written by the agent's prover",
        }),
        elgamal_pubkey: z
          .base64()
          .length(44)
          .meta({ description: "The ElGamal key it is under (32 bytes): the agent's" }),
      })
      .nullable()
      .meta({
        description:
          "Today's confidential spend as the Policy account holds it; null when there is none today",
      }),
  })
  .meta({ id: "AgentBudget" });
export type TAgentBudget = z.infer<typeof ZAgentBudget>;
