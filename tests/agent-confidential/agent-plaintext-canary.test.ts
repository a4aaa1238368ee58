/**
 * Plaintext canary for the agent path: distinctive amounts go through an executed transfer and a
 * held-then-approved one; then everything the flows produced — every transaction's wire bytes and
 * logs, the agent, policy and token accounts, the hold and the six context accounts while they
 * lived, and what the SDK returned from the flows (not what the agent decrypts for itself) — is searched for the amounts, the running totals and the
 * remaining balance. None may appear. Limits are public by design; the deposit (public) is the
 * positive control that shows the search finds what is there.
 */
import type { AgentTransferContexts } from "@cpay/sdk/agent-confidential";
import { approveConfidentialHold } from "@cpay/sdk/agent-confidential";
import type { Address } from "@solana/kit";
import { beforeAll, describe, expect, it } from "vitest";
import {
  type AgentConfidentialWorld,
  createAgentConfidentialWorld,
} from "../support/agent-confidential-world";
import { accountBytes } from "../support/plant-account";

const DEPOSIT = 271_828_182n;
const EXECUTED = 31_415_926n; // within the HITL threshold (50 USDG)
const HELD = 57_721_566n; // above it: held, then approved
const TOTAL_AFTER_EXECUTED = EXECUTED;
const TOTAL_AFTER_HELD = EXECUTED + HELD;
const REMAINING = DEPOSIT - EXECUTED - HELD;

let world: AgentConfidentialWorld;
const blobs: Buffer[] = [];
const texts: string[] = [];

/** Captures the six contexts (and the hold, if any) just before the final transaction. */
function capturing(): {
  unsafeSubstituteContexts: (c: AgentTransferContexts) => AgentTransferContexts;
  unsafeBeforeFinalSubmission: () => void;
} {
  let contexts: AgentTransferContexts | null = null;
  return {
    unsafeSubstituteContexts: (planned) => {
      contexts = planned;
      return planned;
    },
    unsafeBeforeFinalSubmission: () => {
      const planned = contexts as AgentTransferContexts | null;
      if (planned === null) throw new Error("no contexts");
      for (const [slot, context] of Object.entries(planned)) {
        // The staged Token range proof is verified inside the final transaction itself.
        if (world.cluster.getAccount(context) === null && slot === "rangeProof") continue;
        blobs.push(Buffer.from(accountBytes(world.cluster, context)));
      }
    },
  };
}

beforeAll(async () => {
  world = await createAgentConfidentialWorld();
  await world.setupAgent();
  await world.fundAgent(DEPOSIT);
  await world.confidentialRecipient("bob");
  const returned: unknown[] = [];
  returned.push(await world.confidentialTransfer({ amount: EXECUTED, ...capturing() }));
  const held = await world.confidentialTransfer({ amount: HELD, ...capturing() });
  returned.push(held);
  const pending = held.pending as Address;
  blobs.push(Buffer.from(accountBytes(world.cluster, pending)));
  returned.push(await world.holds());
  returned.push(
    await approveConfidentialHold(world.cluster, {
      owner: world.agent.owner,
      pending,
      payer: world.feePayer,
    }),
  );

  const addresses = [
    world.agent.address,
    world.agent.policy,
    world.agent.usdg,
    pending,
    world.feePayer.address,
  ];
  const signatures = new Set(
    addresses.flatMap((address) => world.cluster.getSignaturesForAddress(address).map((s) => s.signature)),
  );
  for (const signature of signatures) {
    const record = world.cluster.getTransaction(signature);
    if (record === null) throw new Error(`missing ${signature}`);
    blobs.push(Buffer.from(record.wire));
    if (record.returnData !== null) blobs.push(Buffer.from(record.returnData.data));
    texts.push(...record.logs);
  }
  for (const address of [world.agent.address, world.agent.policy, world.agent.usdg]) {
    blobs.push(Buffer.from(accountBytes(world.cluster, address)));
  }
  texts.push(
    JSON.stringify(returned, (_key, value) => (typeof value === "bigint" ? value.toString() : value)),
  );
});

function encodings(value: bigint): Buffer[] {
  const u64 = Buffer.alloc(8);
  u64.writeBigUInt64LE(value);
  const found = [u64];
  if (value < 2n ** 32n) {
    const u32 = Buffer.alloc(4);
    u32.writeUInt32LE(Number(value));
    found.push(u32);
  }
  return found;
}

function leaks(value: bigint): string[] {
  const found: string[] = [];
  if (encodings(value).some((needle) => blobs.some((blob) => blob.includes(needle)))) found.push("bytes");
  const ui = `${value / 1_000_000n}.${(value % 1_000_000n).toString().padStart(6, "0")}`;
  for (const [name, needle] of [
    ["decimal", value.toString()],
    ["ui amount", ui],
    ["hex", value.toString(16)],
  ] as const) {
    if (texts.some((text) => text.includes(needle))) found.push(name);
  }
  return found;
}

describe("plaintext canary, agent path", () => {
  it("Given the flows ran, Then the recipient and the agent decrypt the distinctive amounts", async () => {
    expect(await world.recipientPending()).toBe(EXECUTED + HELD);
    expect(world.agentAvailable()).toBe(REMAINING);
    expect(world.proverState().confidentialSpentToday).toBe(TOTAL_AFTER_HELD);
  });

  it("Given the public deposit (positive control), Then the search finds it", () => {
    expect(leaks(DEPOSIT)).toContain("bytes");
  });

  it("Given everything the flows produced, Then no amount, running total or remaining balance appears in any encoding", () => {
    for (const value of [
      EXECUTED,
      HELD,
      TOTAL_AFTER_EXECUTED,
      TOTAL_AFTER_HELD,
      REMAINING,
      DEPOSIT - EXECUTED,
    ]) {
      expect({ value, leaks: leaks(value) }).toEqual({ value, leaks: [] });
    }
  });
});
