/**
 * The relay (issue 8) end to end: a self-custody agent (created with `custody: "self"`, its signer
 * handed over once) signs its own transfers, names the service's fee payer, and submits them to
 * `POST /v1/relay`; the service checks, co-signs and submits; the indexer records them. The agent's
 * signer never holds SOL. Crafted transactions that would spend the reserve are refused with
 * nothing signed; policy refusals come from the program.
 */
import { createAgentClient, createApiRelayTransport } from "@cpay/sdk/agent-client";
import { ApiRequestError } from "@cpay/sdk/api";
import { decryptEncryptedTotal, encryptedTotalFromBase64, findTokenAccount } from "@cpay/sdk/confidential";
import { deriveViewingKeys, importAccountSecret, openTransferDetails } from "@cpay/sdk/sealed";
import { AccountRole, address, createNoopSigner, generateKeyPairSigner, type Instruction } from "@solana/kit";
import { getTransferSolInstruction } from "@solana-program/system";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { indexerSuite } from "../indexer/support/indexer-suite";
import { type ApiWorld, refusalOf, usdg } from "../support/api-world";
import { signerState } from "../support/chain-reads";
import { confidentialStateOn } from "../support/confidential-state";
import { agentKeysFromOwnerSecret } from "../support/holder-keys";
import {
  agentSigned,
  createSelfCustodyAgent,
  publicTransferInstructions,
  type SelfCustodyAgent,
  signedPublicTransfer,
} from "./support/self-custody";

const given = indexerSuite({
  accounts: ["alice", "bob"],
  setUp: async ({ api, alice, bob }) => {
    const solo = await createSelfCustodyAgent(api, alice, "solo");
    const other = await createSelfCustodyAgent(api, alice, "other");
    const bobUsdg = await findTokenAccount(address(bob.account.publicKey), address(api.chain.usdgMint));
    await api.fund(await api.accountRow(solo.created.account_id), {
      public: usdg(500),
      confidential: usdg(300),
    });
    return { solo, other, bobUsdg };
  },
});

const feePayer = () => given.api.service.context.feePayer.address;
const relayAs = (agent: SelfCustodyAgent) => given.api.clientFor(agent.key.value);

/** What the fee payer has signed so far, and its lamports: a refused request changes neither. */
const reserveState = () => signerState(given.api.chain, feePayer());

/** @alice/solo's confidential keys, as its owner derives them client-side. */
const soloKeys = () => agentKeysFromOwnerSecret(given.alice.confidentialSecret, "alice/solo");

/** What the agent's day has charged against its relay cap so far (`relay_fee_usage`). */
async function spentToday(world: ApiWorld, agent: SelfCustodyAgent): Promise<bigint> {
  const { db } = world.service.context;
  const rows = await db.read((q) => q.select().from(db.tables.relayFeeUsage));
  return BigInt(rows.find((row) => row.agentAccountId === agent.created.account_id)?.lamports ?? 0);
}

/** The agent key's usage (spec 5.6): its count and its encrypted total, decrypted with the agent's keys. */
async function keyUsage(agent: SelfCustodyAgent) {
  const { db } = given.api.service.context;
  const [key] = await db.read((q) =>
    q.select().from(db.tables.apiKeys).where(eq(db.tables.apiKeys.id, agent.key.id)),
  );
  const total = key?.transferredTotal ?? null;
  return {
    count: key?.transferCount ?? 0,
    total: total === null ? 0n : decryptEncryptedTotal(encryptedTotalFromBase64(total), soloKeys()),
  };
}

function publicTransfer(amount: bigint, agent: SelfCustodyAgent = given.solo) {
  return publicTransferInstructions(given.api, {
    agent: agent.pda,
    signer: agent.signer,
    recipient: address(given.bob.account.publicKey),
    amount,
  });
}

describe("self-custody agents", () => {
  it("Given an owner, When it creates a self-custody agent, Then the signer comes back once, the vault forgets it, and the custodial path refuses the agent", async () => {
    expect(given.solo.created.custody).toBe("self");
    expect(given.solo.signer.address).toBe(
      (await given.api.accountRow(given.solo.created.account_id)).agentSigner,
    );
    const { vaultSecrets } = given.api.service.context.db.tables;
    const kept = await given.api.service.context.db.read((db) =>
      db.select().from(vaultSecrets).where(eq(vaultSecrets.accountId, given.solo.created.account_id)),
    );
    expect(kept.map((row) => row.kind)).not.toContain("agent_signer_seed");
    const listed = await given.alice.client.call("listAgents", {});
    const listedSolo = listed.agents.find((agent) => agent.account_id === given.solo.created.account_id);
    expect(listedSolo).toMatchObject({ custody: "self" });
    expect(listedSolo).not.toHaveProperty("signer_secret");

    const refused = await refusalOf(
      relayAs(given.solo).call("createTransfer", { body: { to: "@bob", amount: "1", confidential: false } }),
    );
    expect(refused.status).toBe(409);
    expect(refused.code).toBe("agent_self_custody");
  });

  it("Given an agent's key, When it asks the relay, Then it learns the fee payer; an owner's key is refused", async () => {
    const info = await relayAs(given.solo).call("getRelayInfo", {});
    expect(info.fee_payer).toBe(feePayer());
    expect(info.program_id).toBe(given.api.chain.programId);
    const refused = await refusalOf(given.alice.client.call("getRelayInfo", {}));
    expect(refused.status).toBe(403);
    expect(refused.code).toBe("agent_key_required");
  });
});

describe("relayed transfers", () => {
  it("Given a public transfer the agent signed, When relayed, Then it lands paid by the reserve, the indexer confirms it, and the agent's signer holds no SOL", async () => {
    const before = await given.api.chain.getAccount(given.bob.account.publicKey);
    const answer = await relayAs(given.solo).call("relayTransactions", {
      body: { transactions: [await agentSigned(given.api, await publicTransfer(usdg(5)))] },
    });
    expect(answer.signatures).toHaveLength(1);
    // The indexer runs beside the relay and may confirm before the relay answers; the spec lets
    // the create answer already carry `confirmed` (service-interface §3).
    expect(["pending", "confirmed"]).toContain(answer.transfer?.status);
    expect(answer.transfer).toMatchObject({
      to: "@bob",
      confidential: false,
      approval: null,
    });
    expect(answer.transfer?.tx_signature).toBe(answer.signatures[0]);
    // The row exists the moment the relay answers, and the agent's key counts the transfer.
    const id = answer.transfer?.transfer_id ?? "";
    expect((await relayAs(given.solo).call("getTransfer", { params: { transfer_id: id } })).from).toBe(
      given.solo.created.handle,
    );
    const { apiKeys } = given.api.service.context.db.tables;
    const [key] = await given.api.service.context.db.read((db) =>
      db.select().from(apiKeys).where(eq(apiKeys.id, given.solo.key.id)),
    );
    expect(key?.transferCount).toBe(1);
    expect(key?.transferredTotal).not.toBeNull();

    await given.api.slots(2);
    await given.world.catchUp();
    const transfer = await relayAs(given.solo).call("getTransfer", {
      params: { transfer_id: answer.transfer?.transfer_id ?? "" },
    });
    expect(transfer).toMatchObject({ status: "confirmed", from: given.solo.created.handle, to: "@bob" });
    expect(await given.api.chain.getAccount(given.solo.signer.address)).toBeNull();
    expect(before).toBeDefined();
  });

  it("Given a transfer that has the reserve open an outside address's token account, When relayed, Then it is refused (the owner could close it and keep the rent) and nothing is charged to the agent's day", async () => {
    const before = await spentToday(given.api, given.solo);
    const reserveBefore = await reserveState();
    const newcomer = (await generateKeyPairSigner()).address;

    const refused = await refusalOf(
      relayAs(given.solo).call("relayTransactions", {
        body: {
          transactions: [await signedPublicTransfer(given.api, given.solo, newcomer, usdg(1))],
        },
      }),
    );

    expect(refused).toMatchObject({
      status: 422,
      code: "relay_transaction_refused",
      param: "transactions[0]",
    });
    expect(refused.message).toContain("external_account_opening");
    expect(await reserveState()).toEqual(reserveBefore);
    expect(await spentToday(given.api, given.solo)).toBe(before);
  });

  it("Given an amount above the HITL threshold, When relayed, Then it is held with the approval the owner then approves through the API", async () => {
    const answer = await relayAs(given.solo).call("relayTransactions", {
      body: { transactions: [await agentSigned(given.api, await publicTransfer(usdg(60)))] },
    });
    const approval = answer.transfer?.approval;
    expect(approval?.transaction_id).toMatch(/^tx_/);

    await given.api.slots(2);
    await given.world.catchUp();
    const pending = await given.alice.client.call("listPendingApprovals", {});
    const item = pending.pending.find((held) => held.transaction_id === approval?.transaction_id);
    // A raw relay request stated no amount: there is nothing sealed for the owner
    expect(item).toMatchObject({ sealed_amount: null });
    await given.alice.client.call("approveTransaction", {
      params: { transaction_id: approval?.transaction_id ?? "" },
    });
    await given.api.slots(2);
    await given.world.catchUp();
    const transfer = await relayAs(given.solo).call("getTransfer", {
      params: { transfer_id: answer.transfer?.transfer_id ?? "" },
    });
    expect(transfer.status).toBe("confirmed");
  });

  it("Given an amount over the per-transaction limit, When relayed, Then the program refuses it (422 policy_violation) and nothing lands", async () => {
    const before = await reserveState();
    const refused = await refusalOf(
      relayAs(given.solo).call("relayTransactions", {
        body: { transactions: [await agentSigned(given.api, await publicTransfer(usdg(150)))] },
      }),
    );
    expect(refused.status).toBe(422);
    expect(refused.code).toBe("policy_violation");
    expect(refused.param).toBe("per_transaction_limit_usdg");
    expect(await reserveState()).toEqual(before);
  });
});

describe("the SDK agent client over the HTTP relay", () => {
  const clientOf = (agent: SelfCustodyAgent) =>
    createAgentClient({
      chain: given.api.chain,
      relay: createApiRelayTransport(relayAs(agent)),
      agentSigner: agent.signer,
      agent: agent.pda,
      keys: soloKeys(),
      mint: address(given.api.chain.usdgMint),
    });

  it("Given the agent's own client, When its public transfer is held, Then the owner opens the amount the agent sealed to it", async () => {
    const answer = await clientOf(given.solo).transfer({
      recipient: address(given.bob.account.publicKey),
      amount: usdg(60),
      confidential: false,
    });
    const transactionId = (answer.transfer as { approval: { transaction_id: string } }).approval
      .transaction_id;
    const held = await given.alice.client.call("getAgentTransaction", {
      params: { transaction_id: transactionId },
    });
    const opened = openTransferDetails({
      sealed: held.sealed_amount ?? "",
      viewer: deriveViewingKeys(importAccountSecret(given.alice.confidentialSecret)),
      boundTo: transactionId,
    });
    expect(opened).toEqual({ amount: usdg(60), memo: null, direction: "received" });
    await given.alice.client.call("rejectTransaction", { params: { transaction_id: transactionId } });
  });

  it("Given the agent's own client, When it pays confidentially, Then its transactions land through the relay, the indexer confirms the transfer, and the allowance drops by the amount", async () => {
    const client = clientOf(given.solo);
    const before = await client.remainingToday();
    const chargedBefore = await spentToday(given.api, given.solo);
    const reserveBefore = (await given.api.chain.getAccount(feePayer()))?.lamports ?? 0n;
    const bobsCredits = async () =>
      (await confidentialStateOn(given.api.chain, given.bobUsdg))?.pendingBalanceCreditCounter ?? 0n;
    const creditsBefore = await bobsCredits();
    const usageBefore = await keyUsage(given.solo);

    const confidential = await client.transfer({
      recipient: address(given.bob.account.publicKey),
      amount: usdg(7),
      confidential: true,
    });

    expect(["pending", "confirmed"]).toContain((confidential.transfer as { status: string }).status);
    expect(confidential.transfer).toMatchObject({ confidential: true, to: "@bob" });
    expect(await bobsCredits()).toBe(creditsBefore + 1n);
    expect((await client.remainingToday()).daily).toBe(before.daily - usdg(7));
    // The key counts the transfer and its amount, which the service added without reading it.
    expect(await keyUsage(given.solo)).toEqual({
      count: usageBefore.count + 1,
      total: usageBefore.total + usdg(7),
    });
    // The contexts' and the buffer's rent came back in the final transaction: the agent's day is
    // charged exactly what the reserve is out (its fees), not the deposits it got back.
    const reserveOut = reserveBefore - ((await given.api.chain.getAccount(feePayer()))?.lamports ?? 0n);
    expect((await spentToday(given.api, given.solo)) - chargedBefore).toBe(reserveOut);
    await given.api.slots(2);
    await given.world.catchUp();
    const id = (confidential.transfer as { transfer_id: string }).transfer_id;
    expect((await relayAs(given.solo).call("getTransfer", { params: { transfer_id: id } })).status).toBe(
      "confirmed",
    );
    expect(await given.api.chain.getAccount(given.solo.signer.address)).toBeNull();
  });
});

describe("transactions that would spend the reserve", () => {
  const crafted: [string, () => Promise<Instruction[]>][] = [
    [
      "a System transfer from the fee payer",
      async () => [
        ...(await publicTransfer(usdg(1))),
        getTransferSolInstruction({
          source: createNoopSigner(feePayer()),
          destination: (await generateKeyPairSigner()).address,
          amount: 1_000_000n,
        }),
      ],
    ],
    [
      "the fee payer as a writable account handed to the program (a CPI could spend it)",
      async () => {
        const [ata, transfer] = await publicTransfer(usdg(1));
        if (ata === undefined || transfer === undefined) throw new Error("no instructions");
        return [
          ata,
          {
            ...transfer,
            accounts: [...(transfer.accounts ?? []), { address: feePayer(), role: AccountRole.WRITABLE }],
          },
        ];
      },
    ],
    [
      "an unknown program",
      async () => [
        ...(await publicTransfer(usdg(1))),
        {
          programAddress: address("MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr"),
          data: new Uint8Array([1, 2, 3]),
        },
      ],
    ],
    [
      "an extra signer slot",
      async () => {
        const stranger = await generateKeyPairSigner();
        const [ata, transfer] = await publicTransfer(usdg(1));
        if (ata === undefined || transfer === undefined) throw new Error("no instructions");
        return [
          ata,
          {
            ...transfer,
            accounts: [
              ...(transfer.accounts ?? []),
              { address: stranger.address, role: AccountRole.READONLY_SIGNER, signer: stranger },
            ],
          } as Instruction,
        ];
      },
    ],
  ];

  for (const [what, build] of crafted) {
    it(`Given ${what}, When relayed, Then it is refused naming the transaction and nothing is signed`, async () => {
      const before = await reserveState();
      const refused = await refusalOf(
        relayAs(given.solo).call("relayTransactions", {
          body: { transactions: [await agentSigned(given.api, await build())] },
        }),
      );
      expect(refused.status).toBe(422);
      expect(refused.code).toBe("relay_transaction_refused");
      expect(refused.param).toBe("transactions[0]");
      expect(await reserveState()).toEqual(before);
    });
  }

  it("Given a transaction another agent signed, When relayed with this agent's key, Then it is refused", async () => {
    const before = await reserveState();
    const refused = await refusalOf(
      relayAs(given.other).call("relayTransactions", {
        body: { transactions: [await agentSigned(given.api, await publicTransfer(usdg(1)))] },
      }),
    );
    expect(refused.code).toBe("relay_transaction_refused");
    expect(refused.message).toContain("not_this_agent");
    expect(await reserveState()).toEqual(before);
  });

  it("Given an owner's key, When it posts to the relay, Then 403 agent_key_required", async () => {
    const refused = await refusalOf(
      given.alice.client.call("relayTransactions", {
        body: { transactions: [await agentSigned(given.api, await publicTransfer(usdg(1)))] },
      }),
    );
    expect(refused).toBeInstanceOf(ApiRequestError);
    expect(refused.code).toBe("agent_key_required");
  });
});

describe("abuse limits", () => {
  const limited = indexerSuite({
    // A request reserves the most it can cost (2 signatures, the recipient's token account of 170
    // bytes and a hold of 416, rent (bytes + 128) * 6960 each: 5,870,320) and is charged what it did
    // cost (the fees: the recipient's account exists). The cap leaves room for that reservation on
    // top of one landed transfer's fees, so the second fits and the third does not; three requests a
    // minute.
    env: { RELAY_DAILY_FEE_CAP_LAMPORTS: String(5_870_320 + 10_000), RELAY_RATE_LIMIT_PER_MINUTE: "3" },
    accounts: { owner: "carol", recipient: "dave" },
    setUp: async ({ api, owner }) => {
      const agent = await createSelfCustodyAgent(api, owner, "capped");
      await api.faucet.mintUsdgToOwner(agent.pda, usdg(100));
      return { agent };
    },
  });

  const send = async () =>
    limited.api.clientFor(limited.agent.key.value).call("relayTransactions", {
      body: {
        transactions: [
          await signedPublicTransfer(
            limited.api,
            limited.agent,
            address(limited.recipient.account.publicKey),
            usdg(1),
          ),
        ],
      },
    });

  it("Given the agent's daily fee cap, When its relayed transactions spend it, Then the next is refused (429) with nothing signed, and past the per-agent rate the next is 429 rate_limited", async () => {
    const { context } = limited.api.service;

    await send();
    expect(await spentToday(limited.api, limited.agent)).toBe(10_000n);
    await send();
    expect(await spentToday(limited.api, limited.agent)).toBe(20_000n);

    const signedBefore = await signerState(limited.api.chain, context.feePayer.address);
    const capped = await refusalOf(send());
    expect(capped.status).toBe(429);
    expect(capped.code).toBe("relay_fee_cap_reached");
    expect(await signerState(limited.api.chain, context.feePayer.address)).toEqual(signedBefore);

    const limitedRate = await refusalOf(send());
    expect(limitedRate.status).toBe(429);
    expect(limitedRate.code).toBe("rate_limited");
  });
});
