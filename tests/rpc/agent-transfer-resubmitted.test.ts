/**
 * An agent's confidential transfer whose final transaction can never land, through the fault
 * proxy: the proxy holds that transaction (the only one naming the agent-policy program) until its
 * blockhash has expired. The transfer carries no receipt, so the service signs it again only on
 * the finalized proof (the finalized height past the transaction's last valid block height, its
 * signature still unknown) — and then it must end `confirmed` exactly once: one landed execution
 * for its id, the expired transaction nowhere, the agent's encrypted daily spend and key usage
 * counting it once (decrypted with keys its owner derives), balances equal to the chain's.
 */
import { randomUUID } from "node:crypto";
import { idFromBytes } from "@cpay/ledger/ids";
import { findPolicyPda, parseAgentPolicyEvents } from "@cpay/sdk";
import { readProverState } from "@cpay/sdk/agent-confidential";
import { confirmedTransaction } from "@cpay/sdk/chain";
import {
  type ConfidentialKeyset,
  decryptEncryptedTotal,
  encryptedTotalFromBase64,
} from "@cpay/sdk/confidential";
import { address } from "@solana/kit";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { faultSuite } from "../support/fault-world";
import { agentKeysFromOwnerSecret, keysFromSecret } from "../support/holder-keys";
import { confidentialUsdgTotalOn } from "../support/usdg-balances";

const UNITS = 1_000_000n;
const AGENT_FUNDS = 100n * UNITS;
const AMOUNT = 20n * UNITS;
const SETTLE_TIMEOUT_MS = 30_000;

const given = faultSuite({ seed: 22 }, async (world) => {
  const [owner, payee] = await Promise.all([world.account("agentowner"), world.account("payee")]);
  return { owner, payee, agent: await world.agent(owner, "bot", { confidential: AGENT_FUNDS }) };
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The agent's keys as its owner derives them from her own secret. */
const agentKeys = () =>
  agentKeysFromOwnerSecret(given.owner.confidentialSecret, given.agent.account.handle.replace(/^@/, ""));

/** Available + pending of `wallet`'s confidential account, decrypted with `keys`. */
const confidentialBalance = (wallet: string, keys: ConfidentialKeyset) =>
  confidentialUsdgTotalOn(given.world.direct, wallet, keys);

/** Transfer id -> the successful transactions in the agent's history that executed it (program events). */
async function executionsOnChain(): Promise<Map<string, string[]>> {
  const programAddress = address(given.world.direct.programId);
  const executed = new Map<string, string[]>();
  const history = await given.world.direct.getSignaturesForAddress(given.agent.account.publicKey, {
    commitment: "confirmed",
    limit: 1000,
  });
  for (const entry of history) {
    if (entry.err !== null) continue;
    const landed = await confirmedTransaction(given.world.direct, entry.signature);
    if (landed === null) throw new Error(`${entry.signature} is in the agent's history but not readable`);
    for (const event of parseAgentPolicyEvents(landed.logs, { programAddress }).events) {
      if (event.name !== "ConfidentialTransferExecuted" && event.name !== "TransferExecuted") continue;
      if (event.data.agent !== given.agent.account.publicKey) continue;
      const id = idFromBytes("tr", Uint8Array.from(event.data.transferId));
      executed.set(id, [...(executed.get(id) ?? []), entry.signature]);
    }
  }
  return executed;
}

async function settled(id: string) {
  const { db } = given.world.service.context;
  const deadline = Date.now() + SETTLE_TIMEOUT_MS;
  for (;;) {
    const [row] = await db.read((q) =>
      q.select().from(db.tables.transfers).where(eq(db.tables.transfers.id, id)),
    );
    if (row !== undefined && row.status !== "pending") return row;
    if (Date.now() > deadline) throw new Error(`${id} still pending: ${JSON.stringify(row)}`);
    await sleep(200);
  }
}

describe("an agent's confidential transfer whose final transaction expired before landing", () => {
  it("Given the final transaction held until its blockhash expired, Then it is signed again on the finalized proof and confirms exactly once", async () => {
    // Given the proxy holds the next transaction naming the program (the transfer's final one)
    given.world.proxy.set({ expireNextSends: 1, expireOnlyNaming: given.world.direct.programId });
    const expiredBefore = given.world.proxy.stats.expired.length;
    // When the agent sends 20 USDG confidentially with its own key
    let response: Response;
    try {
      response = await fetch(`${given.world.service.url}/v1/transfers`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${given.agent.key}`,
          "content-type": "application/json",
          "idempotency-key": randomUUID(),
        },
        body: JSON.stringify({ to: "@payee", amount: "20", confidential: true }),
      });
    } finally {
      given.world.proxy.clear();
    }
    const body = (await response.json()) as { transfer_id: string; confidential: boolean };
    // Then the request succeeded after the held transaction expired
    expect(response.status, JSON.stringify(body)).toBe(201);
    expect(body.confidential).toBe(true);
    const expired = given.world.proxy.stats.expired.slice(expiredBefore);
    expect(expired).toHaveLength(1);
    // ... and the transfer is confirmed once, with its events once
    const row = await settled(body.transfer_id);
    expect(row.status).toBe("confirmed");
    const { db } = given.world.service.context;
    const events = await db.read((q) =>
      q.select().from(db.tables.events).where(eq(db.tables.events.resourceId, row.id)),
    );
    expect(events.map((event) => event.type).sort()).toEqual([
      "transfer.confirmed",
      "transfer.confirmed",
      "transfer.initiated",
    ]);
    // ... the chain executed it in exactly one transaction, and the expired one never landed
    const executions = await executionsOnChain();
    expect(executions.get(row.id)).toHaveLength(1);
    expect([...executions.keys()]).toEqual([row.id]);
    expect(executions.get(row.id)).not.toContain(expired[0]);
    expect(await given.world.direct.getSignatureStatus(expired[0] as string)).toBeNull();
    // ... the agent's encrypted daily spend and its key's usage count it once
    const [policy] = await findPolicyPda(
      { agent: address(given.agent.account.publicKey) },
      { programAddress: address(given.world.direct.programId) },
    );
    const prover = await readProverState(given.world.direct, { policy, keys: agentKeys() });
    expect(prover.confidentialSpentToday).toBe(AMOUNT);
    const [key] = await db.read((q) =>
      q.select().from(db.tables.apiKeys).where(eq(db.tables.apiKeys.accountId, given.agent.account.id)),
    );
    expect(key?.transferCount).toBe(1);
    expect(
      decryptEncryptedTotal(encryptedTotalFromBase64(key?.transferredTotal as string), agentKeys()),
    ).toBe(AMOUNT);
    // ... and the balances are the chain's: the amount left the agent once and reached the payee once
    expect(await confidentialBalance(given.agent.account.publicKey, agentKeys())).toBe(AGENT_FUNDS - AMOUNT);
    const payeeKeys = keysFromSecret(given.payee.confidentialSecret);
    expect(await confidentialBalance(given.payee.account.publicKey, payeeKeys)).toBe(AMOUNT);
  });
});
