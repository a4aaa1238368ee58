import { describe, expect, it } from "vitest";
import { isConfidentialError } from "../confidential/errors";
import { randomKeysets } from "../confidential/keys.test-support";
import type { PolicySpendState } from "./policy-account";
import { encryptsTotal, proverStateOf } from "./prover-state";

const [keys, stranger] = randomKeysets(2);
const TODAY = 20_522n;

/** A policy whose day is `dayIndex` with S = Enc(spent) under `owner`'s key and the given blob. */
function policy(input: {
  readonly dayIndex?: bigint;
  readonly spent?: bigint;
  readonly blob?: Uint8Array;
  readonly owner?: typeof keys;
}): PolicySpendState {
  const owner = input.owner ?? keys;
  const spent = input.spent;
  return {
    address: "policy",
    perTransactionLimit: 100n,
    dailyLimit: 250n,
    hitlThreshold: 50n,
    dayIndex: input.dayIndex ?? TODAY,
    spentToday: 7n,
    spendCiphertext:
      spent === undefined ? new Uint8Array(64) : owner.elgamal.pubkey().encryptU64(spent).toBytes(),
    spendPubkey: spent === undefined ? new Uint8Array(32) : owner.elgamalPubkey,
    spendDecryptable: input.blob ?? new Uint8Array(36),
  };
}

describe("prover state", () => {
  it("Given a stored day before today, Then P, S and the total are zero whatever is stored", () => {
    const state = proverStateOf(policy({ dayIndex: TODAY - 1n, spent: 40n }), keys, TODAY);
    expect(state).toMatchObject({ publicSpentToday: 0n, confidentialSpentToday: 0n, source: "new_day" });
    expect(state.spendCiphertext).toEqual(new Uint8Array(64));
  });

  it("Given a clock that stepped back (stored day after today), Then the stored spends still count", () => {
    const state = proverStateOf(
      policy({ dayIndex: TODAY + 1n, spent: 40n, blob: keys.ae.encrypt(40n).toBytes() }),
      keys,
      TODAY,
    );
    expect(state).toMatchObject({ publicSpentToday: 7n, confidentialSpentToday: 40n, source: "decryptable" });
  });

  it("Given no confidential spend today, Then the total is zero without decrypting", () => {
    expect(proverStateOf(policy({}), keys, TODAY)).toMatchObject({
      publicSpentToday: 7n,
      confidentialSpentToday: 0n,
      source: "none",
    });
  });

  it("Given a blob that matches S, Then the total comes from the blob", () => {
    const big = 5_000_000_000_000n; // above 2^32: ElGamal could not decrypt it
    const state = proverStateOf(policy({ spent: big, blob: keys.ae.encrypt(big).toBytes() }), keys, TODAY);
    expect(state).toMatchObject({ confidentialSpentToday: big, source: "decryptable" });
  });

  it("Given a blob with a wrong total, Then it is detected and S is ElGamal-decrypted", () => {
    const state = proverStateOf(policy({ spent: 40n, blob: keys.ae.encrypt(41n).toBytes() }), keys, TODAY);
    expect(state).toMatchObject({ confidentialSpentToday: 40n, source: "elgamal" });
  });

  it("Given a missing or foreign blob, Then S is ElGamal-decrypted", () => {
    expect(proverStateOf(policy({ spent: 40n }), keys, TODAY).source).toBe("elgamal");
    const foreign = policy({ spent: 40n, blob: stranger.ae.encrypt(40n).toBytes() });
    expect(proverStateOf(foreign, keys, TODAY)).toMatchObject({
      confidentialSpentToday: 40n,
      source: "elgamal",
    });
    const garbage = policy({ spent: 40n, blob: new Uint8Array(36).fill(7) });
    expect(proverStateOf(garbage, keys, TODAY).confidentialSpentToday).toBe(40n);
  });

  it("Given a corrupt blob and a total above 2^32, Then the state is undecryptable", () => {
    const big = 1n << 33n;
    let thrown: unknown;
    try {
      proverStateOf(policy({ spent: big, blob: keys.ae.encrypt(big + 1n).toBytes() }), keys, TODAY);
    } catch (error) {
      thrown = error;
    }
    expect(isConfidentialError(thrown, "spend_state_undecryptable")).toBe(true);
  });

  it("Given a spend under another key, Then it is a key mismatch", () => {
    let thrown: unknown;
    try {
      proverStateOf(policy({ spent: 40n, owner: stranger }), keys, TODAY);
    } catch (error) {
      thrown = error;
    }
    expect(isConfidentialError(thrown, "account_key_mismatch")).toBe(true);
  });

  it("Given S, Then S_C - s*S_D == total*G holds for its total only", () => {
    const spend = keys.elgamal.pubkey().encryptU64(12n).toBytes();
    expect(encryptsTotal(spend, 12n, keys)).toBe(true);
    expect(encryptsTotal(spend, 13n, keys)).toBe(false);
    expect(encryptsTotal(spend, 12n, stranger)).toBe(false);
    expect(encryptsTotal(keys.elgamal.pubkey().encryptU64(0n).toBytes(), 0n, keys)).toBe(true);
  });
});
