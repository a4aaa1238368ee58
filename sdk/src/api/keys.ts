/** `/v1/keys`: the account's API keys, managed from a dashboard session (spec 5, 5.6). */
import { z } from "zod";
import { ZSecretAlreadyDelivered, ZTimestamp, zId } from "./common";

/** A key as the dashboard shows it: never its value or hash. */
export const ZKeyView = z
  .object({
    id: zId("key"),
    name: z.string(),
    environment: z.enum(["test", "live"]),
    display: z.string().meta({ description: "`svc_test_...` and the key's last 4 characters" }),
    created_at: ZTimestamp,
    last_used_at: ZTimestamp.nullable(),
    revoked_at: ZTimestamp.nullable(),
    request_count: z.number().int().min(0),
    transfer_count: z.number().int().min(0),
    transferred_total_encrypted: z.string().nullable().meta({
      description:
        "Base64 ElGamal ciphertext of the total transferred with the key, under the account's key: decrypted client-side",
    }),
  })
  .meta({ id: "KeyView" });
export type TKeyView = z.infer<typeof ZKeyView>;

export const ZCreateKeyRequest = z
  .strictObject({
    name: z.string().trim().min(1).max(100),
    account_id: zId("acct").optional().meta({
      description:
        "One of the account's agents: the key is that agent's own (it spends under the agent's on-chain policy, and is managed like any key the operator issues an agent). Omitted: a key of the account itself",
    }),
  })
  .meta({ id: "CreateKeyRequest" });

export const ZCreatedKey = z
  .object({
    key: ZKeyView,
    api_key: z
      .string()
      .regex(/^svc_(test|live)_[A-Za-z0-9_-]{43}$/)
      .nullable()
      .meta({ description: "The key itself, shown once: null on an Idempotency-Key replay" }),
    secret_already_delivered: ZSecretAlreadyDelivered,
  })
  .meta({ id: "CreatedKey" });

export const ZKeyList = z.object({ keys: z.array(ZKeyView) }).meta({ id: "KeyList" });

export const ZKeyParams = z.strictObject({ key_id: zId("key") });
