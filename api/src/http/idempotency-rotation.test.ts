/**
 * The idempotency store during a master-key rotation, on a real (SQLite) database: an answer stored
 * while A was current still replays once B is current with A previous, and the rotation learns from
 * the stored records when A may go (vault/reseal-vault.ts).
 */
import { describe, expect, it } from "vitest";
import { useThrowawayDatabase } from "../core/throwaway-database.test-support";
import { generateMasterKeyHex } from "../core/vault-crypto";
import { earlierIdempotencyExpiry } from "../vault/reseal-vault";
import { runIdempotently } from "./idempotency";
import { requestFingerprint } from "./idempotency-fingerprint";

const KEY_A = generateMasterKeyHex();
const KEY_B = generateMasterKeyHex();

const world = useThrowawayDatabase("idempotency-rotation");
const { serviceWith } = world;

describe("idempotency across a master-key rotation", () => {
  it("Given an Idempotency-Key answer stored under A, When B is current with A previous, Then the retry replays it; its expiry says when A may go", async () => {
    const underA = serviceWith({ SERVICE_MASTER_KEY: KEY_A });
    const request = { method: "post", route: "transfers.create", params: {}, body: { amount: "1.00" } };
    let runs = 0;
    const work = async () => {
      runs += 1;
      return { status: 201, body: { id: "tr_1" } };
    };
    const first = await runIdempotently(
      underA,
      { accountId: "acct_1", key: "k1", fingerprint: requestFingerprint(underA.config.masterKey, request) },
      work,
    );
    const rotating = serviceWith({ SERVICE_MASTER_KEY: KEY_B, SERVICE_MASTER_KEYS_PREVIOUS: KEY_A });
    const retry = await runIdempotently(
      rotating,
      {
        accountId: "acct_1",
        key: "k1",
        fingerprint: requestFingerprint(rotating.config.masterKey, request),
        earlierFingerprints: rotating.config.previousMasterKeys.map((key) =>
          requestFingerprint(key, request),
        ),
      },
      work,
    );
    expect(runs).toBe(1);
    expect(retry).toEqual({ ...first, replayed: true });
    const [row] = await world.db.read((tx) => tx.select().from(world.db.tables.idempotencyKeys));
    expect(await earlierIdempotencyExpiry(world.db, new Date().toISOString())).toBe(row?.expiresAt);
    expect(await earlierIdempotencyExpiry(world.db, "2000-01-01T00:00:00.000Z")).toBeNull();
  });
});
