/**
 * `GET /v1/accounts/me/balances` with a decryption proof (spec 4.10, DESIGN section 6). The proof
 * is made exactly as an integrator makes it: import the confidential secret it was given, derive
 * the keys, read the on-chain available-balance ciphertext, decrypt it locally and prove that
 * amount (`createBalanceProof`). The service answers that amount; anything else is
 * `422 decryption_proof_invalid`, never a 500. The proof travels in the GET body only (the spec):
 * its bytes 1..9 are the amount in clear, and proxies log headers, so an `X-Decryption-Proof`
 * header is refused with 400 and nothing is verified.
 */
import { request } from "node:http";
import {
  availableBalance,
  createBalanceProof,
  deriveAgentConfidentialSecret,
  deriveConfidentialKeys,
  findTokenAccount,
  importConfidentialSecret,
} from "@cpay/sdk/confidential";
import { describe, expect, it } from "vitest";
import { apiSuite } from "../support/api-suite";
import { type ApiWorld, refusalOf, usdg } from "../support/api-world";
import { confidentialStateOn } from "../support/confidential-state";
import { createTestAgent } from "./support/agents";
import { creditFromOutside } from "./support/outside-credit";

interface RawAnswer {
  readonly status: number;
  readonly json: {
    balances?: {
      asset: string;
      confidential: boolean;
      amount?: string;
      has_balance?: boolean;
      encrypted?: { available_balance: string; decryptable_available_balance: string } | null;
    }[];
    error?: { code: string; param?: string; message: string };
  };
}

/** A GET with a JSON body (fetch refuses to send one; curl and node:http do). */
function getBalances(
  world: ApiWorld,
  key: string,
  options: { body?: unknown; proofHeader?: string } = {},
): Promise<RawAnswer> {
  const url = new URL("/v1/accounts/me/balances", world.url);
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      {
        method: "GET",
        headers: {
          authorization: `Bearer ${key}`,
          ...(payload === undefined
            ? {}
            : { "content-type": "application/json", "content-length": Buffer.byteLength(payload) }),
          ...(options.proofHeader === undefined ? {} : { "x-decryption-proof": options.proofHeader }),
        },
      },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          text += chunk;
        });
        response.on("end", () => resolve({ status: response.statusCode ?? 0, json: JSON.parse(text) }));
      },
    );
    outgoing.on("error", reject);
    outgoing.end(payload);
  });
}

/** What an integrator does with the secret it was handed: a proof of its current available balance. */
async function proveBalance(
  world: ApiWorld,
  secret: Uint8Array,
  tokenAccount: string,
): Promise<{ proof: string; amount: bigint }> {
  const keys = deriveConfidentialKeys(secret);
  const state = await confidentialStateOn(world.chain, tokenAccount);
  if (state === null) throw new Error(`${tokenAccount} is not configured`);
  const amount = availableBalance(state, keys);
  return { proof: createBalanceProof({ keys, availableCiphertext: state.availableBalance, amount }), amount };
}

/** Balance entries without the on-chain ciphertexts a proof-less read carries (`encrypted`). */
type BalanceEntry = NonNullable<RawAnswer["json"]["balances"]>[number];
function withoutCiphertexts(entries: readonly (BalanceEntry | undefined)[] | undefined) {
  return (entries ?? []).map((entry) => {
    if (entry === undefined) return entry;
    const { encrypted: _ciphertexts, ...rest } = entry;
    return rest;
  });
}

function confidentialEntry(answer: RawAnswer) {
  return answer.json.balances?.find((entry) => entry.asset === "USDG" && entry.confidential);
}

describe("GET /v1/accounts/me/balances with a decryption proof", () => {
  const given = apiSuite({
    accounts: ["alice"],
    funds: { alice: { confidential: 12_345_678n, public: usdg(3) } },
    setUp: async ({ world, alice }) => ({
      aliceUsdg: await findTokenAccount(alice.account.publicKey, world.chain.usdgMint),
    }),
  });

  it("returns the exact amount a client-made proof shows, and a stale proof is refused", async () => {
    // Given alice's proof of her available balance, made from the secret she was handed
    const secret = importConfidentialSecret(given.alice.confidentialSecret);
    const { proof, amount } = await proveBalance(given.world, secret, given.aliceUsdg);
    expect(amount).toBe(12_345_678n);
    // When she sends it in the GET body
    const answer = await getBalances(given.world, given.alice.key.value, {
      body: { decryption_proof: proof },
    });
    // Then the confidential entry carries the amount, the others still only say yes or no
    expect(answer.status).toBe(200);
    expect(answer.json.balances).toEqual([
      { asset: "USDG", confidential: true, amount: "12.345678" },
      { asset: "USDG", confidential: false, has_balance: true },
      { asset: "SOL", confidential: false, has_balance: false },
    ]);

    // And the typed client (which sends the proof in the GET body too) gets the same
    const typed = await given.alice.client.call("getBalances", { body: { decryption_proof: proof } });
    expect(typed.balances[0]).toEqual({ asset: "USDG", confidential: true, amount: "12.345678" });

    // And after one more credit, the old proof no longer matches the balance
    await given.world.fund(given.alice.account, { confidential: usdg(1) });
    const stale = await getBalances(given.world, given.alice.key.value, {
      body: { decryption_proof: proof },
    });
    expect(stale.status).toBe(422);
    expect(stale.json.error).toMatchObject({ code: "decryption_proof_invalid", param: "decryption_proof" });
    expect(stale.json.error?.message).not.toMatch(/12\.34|12345678/);
    // While a fresh proof shows the new total
    const fresh = await proveBalance(given.world, secret, given.aliceUsdg);
    const renewed = await getBalances(given.world, given.alice.key.value, {
      body: { decryption_proof: fresh.proof },
    });
    expect(confidentialEntry(renewed)).toEqual({ asset: "USDG", confidential: true, amount: "13.345678" });
  });

  it("Given the proof in a POST body (what a browser can send), Then the same amount comes back, and an Idempotency-Key stores no answer", async () => {
    const { proof, amount } = await proveBalance(
      given.world,
      importConfidentialSecret(given.alice.confidentialSecret),
      given.aliceUsdg,
    );
    const before = await given.world.service.context.db.read((q) =>
      q.select().from(given.world.service.context.db.tables.idempotencyKeys),
    );
    const answer = await fetch(new URL("/v1/accounts/me/balances", given.world.url), {
      method: "POST",
      headers: {
        authorization: `Bearer ${given.alice.key.value}`,
        "content-type": "application/json",
        "idempotency-key": "balance-read-1",
      },
      body: JSON.stringify({ decryption_proof: proof }),
    });
    expect(answer.status).toBe(200);
    const json = (await answer.json()) as RawAnswer["json"];
    expect(amount).toBe(13_345_678n);
    expect(json.balances?.[0]).toEqual({ asset: "USDG", confidential: true, amount: "13.345678" });
    // A read answer carrying an amount is never stored for replays
    const after = await given.world.service.context.db.read((q) =>
      q.select().from(given.world.service.context.db.tables.idempotencyKeys),
    );
    expect(after.length).toBe(before.length);
    expect(answer.headers.get("idempotent-replayed")).toBeNull();
    // Without a proof the POST is refused naming the field (the GET serves that read)
    const missing = await fetch(new URL("/v1/accounts/me/balances", given.world.url), {
      method: "POST",
      headers: { authorization: `Bearer ${given.alice.key.value}`, "content-type": "application/json" },
      body: "{}",
    });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as RawAnswer["json"]).error?.param).toMatch(/decryption_proof/);
  });

  it("Given a valid proof in the X-Decryption-Proof header, alone or beside the same body, Then it is refused with 400 naming the body field, and no amount is answered", async () => {
    const { proof } = await proveBalance(
      given.world,
      importConfidentialSecret(given.alice.confidentialSecret),
      given.aliceUsdg,
    );
    for (const request of [
      { proofHeader: proof },
      { body: { decryption_proof: proof }, proofHeader: proof },
    ]) {
      const answer = await getBalances(given.world, given.alice.key.value, request);
      expect(answer.status).toBe(400);
      expect(answer.json.error).toMatchObject({ code: "invalid_request", param: "x-decryption-proof" });
      expect(answer.json.error?.message).toContain("decryption_proof");
      expect(answer.json.balances).toBeUndefined();
    }
    const typed = await refusalOf(
      given.alice.client.call("getBalances", { headers: { "x-decryption-proof": proof } }),
    );
    expect({ status: typed.status, code: typed.code, param: typed.param }).toEqual({
      status: 400,
      code: "invalid_request",
      param: "x-decryption-proof",
    });
  });

  it("refuses proofs that do not verify with 422, never a 500", async () => {
    const { proof } = await proveBalance(
      given.world,
      importConfidentialSecret(given.alice.confidentialSecret),
      given.aliceUsdg,
    );
    const bytes = Buffer.from(proof, "base64");
    // Another account's keys: bob proves his own balance and sends it with alice's key
    const bob = await given.world.account("bob");
    await given.world.fund(bob.account, { confidential: usdg(2) });
    const bobUsdg = await findTokenAccount(bob.account.publicKey, given.world.chain.usdgMint);
    const bobs = (await proveBalance(given.world, importConfidentialSecret(bob.confidentialSecret), bobUsdg))
      .proof;
    // A different amount claimed over the same proof bytes
    const otherAmount = Buffer.from(bytes);
    otherAmount[1] = (otherAmount[1] ?? 0) ^ 1;
    // A flipped bit in the proof itself
    const flipped = Buffer.from(bytes);
    flipped[150] = (flipped[150] ?? 0) ^ 1;
    const invalid = {
      "another account's proof": bobs,
      "garbage base64": "not base64 at all!!",
      "wrong length": Buffer.from(bytes.subarray(0, 100)).toString("base64"),
      "unknown version": Buffer.from([2, ...bytes.subarray(1)]).toString("base64"),
      "another amount": otherAmount.toString("base64"),
      "a flipped proof bit": flipped.toString("base64"),
      "base64 with a line break": `${proof.slice(0, 76)}\n${proof.slice(76)}`,
      "extra bytes": `${proof}AAAA`,
    };
    for (const [what, candidate] of Object.entries(invalid)) {
      const answer = await getBalances(given.world, given.alice.key.value, {
        body: { decryption_proof: candidate },
      });
      expect({ what, status: answer.status, code: answer.json.error?.code }).toEqual({
        what,
        status: 422,
        code: "decryption_proof_invalid",
      });
    }
    // And the shape errors are 400 naming the field
    for (const body of [
      { decryption_proof: "" },
      { decryption_proof: 42 },
      { decryption_proof: "A".repeat(1025) },
    ]) {
      const answer = await getBalances(given.world, given.alice.key.value, { body });
      expect(answer.status).toBe(400);
      expect(answer.json.error).toMatchObject({ code: "invalid_request", param: "decryption_proof" });
    }
    const unknownField = await getBalances(given.world, given.alice.key.value, { body: { proof } });
    expect(unknownField.status).toBe(400);
    const emptyHeader = await getBalances(given.world, given.alice.key.value, { proofHeader: " " });
    expect(emptyHeader.json.error).toMatchObject({ code: "invalid_request", param: "x-decryption-proof" });
  });

  it("works for an agent's key with a proof from the agent's keys (derived from its owner's secret)", async () => {
    // Given an agent of alice, funded confidentially
    const { agent, row, key } = await createTestAgent(given.world, given.alice, "proof-bot");
    await given.world.fund(row, { confidential: 2_500_000n });
    const agentKey = key.value;
    // Without a proof: confidential yes; its PDA holds only rent, which is no SOL balance
    const plain = await getBalances(given.world, agentKey);
    expect(plain.json.balances?.[0]?.encrypted?.available_balance).toMatch(/^[A-Za-z0-9+/]{86}==$/);
    expect(withoutCiphertexts(plain.json.balances)).toEqual([
      { asset: "USDG", confidential: true, has_balance: true },
      { asset: "USDG", confidential: false, has_balance: false },
      { asset: "SOL", confidential: false, has_balance: false },
    ]);
    // When alice's integration proves the agent's balance with the agent's keys
    const agentSecret = deriveAgentConfidentialSecret(
      importConfidentialSecret(given.alice.confidentialSecret),
      "alice/proof-bot",
    );
    const agentUsdg = await findTokenAccount(agent.public_key, given.world.chain.usdgMint);
    const { proof } = await proveBalance(given.world, agentSecret, agentUsdg);
    // Then the agent's key reads the exact amount
    const proven = await getBalances(given.world, agentKey, { body: { decryption_proof: proof } });
    expect(proven.status).toBe(200);
    expect(confidentialEntry(proven)).toEqual({ asset: "USDG", confidential: true, amount: "2.5" });
    // And the owner's own proof means nothing for the agent's balance
    const ownerProof = (
      await proveBalance(
        given.world,
        importConfidentialSecret(given.alice.confidentialSecret),
        given.aliceUsdg,
      )
    ).proof;
    const mixed = await getBalances(given.world, agentKey, { body: { decryption_proof: ownerProof } });
    expect(mixed.status).toBe(422);
  });

  it("answers an agent with an open confidential hold: the credit stays pending and still counts", async () => {
    // Given an agent of alice holding 80 USDG, whose 60 USDG transfer (above its 50 USDG threshold)
    // waits for alice's approval: the program refuses to apply credits while that hold is open
    await given.world.account("shop");
    const { agent, row, key } = await createTestAgent(given.world, given.alice, "held-bot");
    await given.world.fund(row, { confidential: usdg(80) });
    const agentClient = given.world.clientFor(key.value);
    const held = await agentClient.call("createTransfer", { body: { to: "@shop", amount: "60" } });
    expect(held.approval).not.toBeNull();
    // And an outside wallet pays the agent 1 USDG (it lands in its pending balance)
    await creditFromOutside(given.world, agent.public_key, usdg(1));
    const agentUsdg = await findTokenAccount(agent.public_key, given.world.chain.usdgMint);
    expect((await confidentialStateOn(given.world.chain, agentUsdg))?.pendingBalanceCreditCounter).toBe(1n);
    // When the agent reads its balances
    const plain = await getBalances(given.world, key.value);
    // Then the read succeeds, the credit counts, and it is still pending
    expect(plain.status).toBe(200);
    expect(withoutCiphertexts([confidentialEntry(plain)])).toEqual([
      { asset: "USDG", confidential: true, has_balance: true },
    ]);
    expect((await confidentialStateOn(given.world.chain, agentUsdg))?.pendingBalanceCreditCounter).toBe(1n);
    // And a proof of the available balance (the hold's funds have not left it yet) still verifies
    const agentSecret = deriveAgentConfidentialSecret(
      importConfidentialSecret(given.alice.confidentialSecret),
      "alice/held-bot",
    );
    const { proof } = await proveBalance(given.world, agentSecret, agentUsdg);
    const proven = await getBalances(given.world, key.value, { body: { decryption_proof: proof } });
    expect(confidentialEntry(proven)).toEqual({ asset: "USDG", confidential: true, amount: "80" });
  });

  it("never writes a proven amount or a proof to the log", () => {
    const log = given.world.logs.join("\n");
    expect(log).not.toMatch(/12\.345678|13\.345678|12345678|13345678/);
    expect(log).not.toMatch(/"decryption_proof":"[A-Za-z0-9+/]/);
    expect(log).not.toContain("x-decryption-proof");
  });
});
