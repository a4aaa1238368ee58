/**
 * The relay's own bookkeeping, with no indexer running (what the relay writes is all there is):
 * every agent transfer of a request gets its row before submission and its outcome (held,
 * submitted, failed) as soon as its transaction lands or fails, whatever a later transaction does;
 * each counts in the agent key's usage; and a `transfer_record` is relayed only beside the agent's
 * own transfer of the same id, destination and mint.
 */
import { randomBytes } from "node:crypto";
import { idFromBytes } from "@cpay/ledger/ids";
import { buildAgentTransferInstruction, buildTransferRecordInstruction } from "@cpay/sdk";
import { readAgentAccount } from "@cpay/sdk/agent-confidential";
import { findTokenAccount } from "@cpay/sdk/confidential";
import { address, createNoopSigner, type Instruction } from "@solana/kit";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { apiSuite } from "../support/api-suite";
import { refusalOf, usdg } from "../support/api-world";
import { signerState } from "../support/chain-reads";
import { agentSigned, createSelfCustodyAgent } from "./support/self-custody";

const given = apiSuite({
  accounts: ["alice", "bob"],
  setUp: async ({ world, alice, bob }) => {
    const solo = await createSelfCustodyAgent(world, alice, "solo");
    await world.faucet.mintUsdgToOwner(solo.pda, usdg(240));
    // bob's token account exists: no transaction below needs to create it.
    await world.fund(bob.account, { public: usdg(1) });
    return { solo };
  },
});

const relay = () => given.world.clientFor(given.solo.key.value);
const feePayer = () => createNoopSigner(given.world.service.context.feePayer.address);
const mint = () => address(given.world.chain.usdgMint);
const newId = () => new Uint8Array(randomBytes(16));

/** solo's `agent_transfer` of `amount` to bob under `transferId` (its hold nonce read now). */
async function agentTransfer(transferId: Uint8Array, amount: bigint): Promise<Instruction> {
  const [source, destination] = await Promise.all([
    findTokenAccount(given.solo.pda, mint()),
    findTokenAccount(given.bob.account.publicKey, mint()),
  ]);
  return buildAgentTransferInstruction({
    agentSigner: given.solo.signer,
    agent: given.solo.pda,
    nextHoldNonce: (await readAgentAccount(given.world.chain, given.solo.pda)).nextHoldNonce,
    mint: mint(),
    source,
    destination,
    amount,
    transferId,
    payer: feePayer(),
    programAddress: address(given.world.chain.programId),
  });
}

/** solo's `transfer_record` of `transferId`, to `recipient`'s token account (bob's by default). */
async function transferRecord(
  transferId: Uint8Array,
  recipient = given.bob.account.publicKey,
): Promise<Instruction> {
  const [source, destination] = await Promise.all([
    findTokenAccount(given.solo.pda, mint()),
    findTokenAccount(recipient, mint()),
  ]);
  return buildTransferRecordInstruction({
    sender: given.solo.signer,
    payer: feePayer(),
    transferId,
    confidential: false,
    memo: new Uint8Array(),
    source,
    destination,
    mint: mint(),
    programAddress: address(given.world.chain.programId),
  });
}

const rowOf = (transferId: Uint8Array) => given.world.transferRow(idFromBytes("tr", transferId));

async function keyUsageCount(): Promise<number> {
  const { db } = given.world.service.context;
  const [key] = await db.read((q) =>
    q.select().from(db.tables.apiKeys).where(eq(db.tables.apiKeys.id, given.solo.key.id)),
  );
  return key?.transferCount ?? 0;
}

/** What solo's relay fees have reserved so far (`relay_fee_usage`). */
async function feesReserved(): Promise<number> {
  const { db } = given.world.service.context;
  const rows = await db.read((q) => q.select().from(db.tables.relayFeeUsage));
  return rows.find((row) => row.agentAccountId === given.solo.created.account_id)?.lamports ?? 0;
}

/** A transaction the program refuses: above the per-transaction limit (100 USDG). */
const failing = async () => agentSigned(given.world, [await agentTransfer(newId(), usdg(150))]);

describe("outcomes recorded as each transaction lands", () => {
  it("Given a held transfer then a failing transaction, When relayed, Then the refusal names the second and the first is held for the owner", async () => {
    const x = newId();
    const refused = await refusalOf(
      relay().call("relayTransactions", {
        body: {
          transactions: [await agentSigned(given.world, [await agentTransfer(x, usdg(60))]), await failing()],
        },
      }),
    );
    expect(refused.status).toBe(422);
    expect(refused.param).toBe("per_transaction_limit_usdg");

    const row = await rowOf(x);
    expect(row.phase).toBe("held");
    const pending = await given.alice.client.call("listPendingApprovals", {});
    expect(pending.pending.map((held) => held.transaction_id)).toContain(row.holdId);
  });

  it("Given an executed transfer then a failing transaction, When relayed, Then the first is submitted and counted for the key", async () => {
    const x = newId();
    const countBefore = await keyUsageCount();
    await refusalOf(
      relay().call("relayTransactions", {
        body: {
          transactions: [await agentSigned(given.world, [await agentTransfer(x, usdg(1))]), await failing()],
        },
      }),
    );
    const row = await rowOf(x);
    expect(row.phase).not.toBe("submitting");
    expect(row.txSignature).not.toBeNull();
    expect(await keyUsageCount()).toBe(countBefore + 1);
  });

  it("Given a failing transaction before a second transfer, When relayed, Then both transfers are failed, none left submitting", async () => {
    const [first, second] = [newId(), newId()];
    await refusalOf(
      relay().call("relayTransactions", {
        body: {
          transactions: [
            await agentSigned(given.world, [await agentTransfer(first, usdg(150))]),
            await agentSigned(given.world, [await agentTransfer(second, usdg(1))]),
          ],
        },
      }),
    );
    expect((await rowOf(first)).status).toBe("failed");
    expect((await rowOf(second)).status).toBe("failed");
  });
});

describe("every agent transfer of a request", () => {
  it("Given two transfers in one request, When relayed, Then each has its own row, made by the key, and both count in its usage", async () => {
    const [first, second] = [newId(), newId()];
    const countBefore = await keyUsageCount();
    const answer = await relay().call("relayTransactions", {
      body: {
        transactions: [
          await agentSigned(given.world, [await agentTransfer(first, usdg(1))]),
          await agentSigned(given.world, [await agentTransfer(second, usdg(2))]),
        ],
      },
    });
    expect(answer.signatures).toHaveLength(2);
    expect(answer.transfer?.transfer_id).toBe(idFromBytes("tr", first));
    for (const [id, signature] of [
      [first, answer.signatures[0]],
      [second, answer.signatures[1]],
    ] as const) {
      const row = await rowOf(id);
      expect(row.apiKeyId).toBe(given.solo.key.id);
      expect(row.txSignature).toBe(signature);
      expect(row.usageIncrement).not.toBeNull();
    }
    expect(await keyUsageCount()).toBe(countBefore + 2);
  });

  it("Given two transfers with one transfer id, When relayed, Then it is refused with nothing signed, reserved or written", async () => {
    const x = newId();
    const signedBefore = await signerState(given.world.chain, feePayer().address);
    const reservedBefore = await feesReserved();
    const refused = await refusalOf(
      relay().call("relayTransactions", {
        body: {
          transactions: [
            await agentSigned(given.world, [await agentTransfer(x, usdg(1))]),
            await agentSigned(given.world, [await agentTransfer(x, usdg(1))]),
          ],
        },
      }),
    );
    expect(refused.code).toBe("relay_transaction_refused");
    expect(refused.param).toBe("transactions[1]");
    expect(await signerState(given.world.chain, feePayer().address)).toEqual(signedBefore);
    expect(await feesReserved()).toBe(reservedBefore);
    await expect(rowOf(x)).rejects.toThrow(/no transfer/);
  });
});

describe("a relayed transfer_record", () => {
  const cases: [string, () => Promise<Instruction[]>][] = [
    ["alone", async () => [await transferRecord(newId())]],
    [
      "beside a transfer of another id",
      async () => [await transferRecord(newId()), await agentTransfer(newId(), usdg(1))],
    ],
    [
      "beside a transfer of its id to another destination",
      async () => {
        const x = newId();
        return [await transferRecord(x, given.alice.account.publicKey), await agentTransfer(x, usdg(1))];
      },
    ],
  ];
  for (const [what, build] of cases) {
    it(`Given a transfer_record ${what}, When relayed, Then 422 relay_transaction_refused and nothing is signed`, async () => {
      const signedBefore = await signerState(given.world.chain, feePayer().address);
      const refused = await refusalOf(
        relay().call("relayTransactions", {
          body: { transactions: [await agentSigned(given.world, await build())] },
        }),
      );
      expect(refused.status).toBe(422);
      expect(refused.code).toBe("relay_transaction_refused");
      expect(refused.param).toBe("transactions[0]");
      expect(refused.message).toContain("transfer_record");
      expect(await signerState(given.world.chain, feePayer().address)).toEqual(signedBefore);
    });
  }

  it("Given a transfer_record beside the agent's own transfer of its id and destination, When relayed, Then it lands", async () => {
    const x = newId();
    const answer = await relay().call("relayTransactions", {
      body: {
        transactions: [
          await agentSigned(given.world, [await agentTransfer(x, usdg(1)), await transferRecord(x)]),
        ],
      },
    });
    expect(answer.transfer?.transfer_id).toBe(idFromBytes("tr", x));
  });
});
