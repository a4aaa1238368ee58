/**
 * Plaintext canary for the agent path. Distinctive amounts (above 2^40 base units, so each half of
 * Token-2022's 16/32-bit split is distinctive too) go through an executed transfer and a
 * held-then-approved one, under distinctive limits. Then everything the flows produced is searched:
 * every transaction that touched the agent, its policy, token accounts, the hold or the payer (wire
 * bytes, CPI data, return data, the events' decoded bytes, logs), the agent, policy, hold and both
 * token accounts, the six contexts and the staging buffer as they were just before each final
 * transaction, and what the SDK returned. No amount, running total, remaining balance or limit
 * headroom (bound - a, what the range proofs are about) may appear:
 * - bytes: u64 LE; the low u32 word; the 32-bit high half (bits 16..47) as u32 LE. A 16-bit half
 *   is not searched in bytes: any 2-byte pattern occurs by chance in kilobytes of ciphertexts;
 * - text: decimal, UI amount (6 decimals), hex; each half in decimal when it has 5+ digits.
 * Limits are public by design and not searched. The public deposit is the positive control.
 */

import { BPF_LOADER_UPGRADEABLE_ADDRESS } from "@cpay/localnet/cluster";
import { approveConfidentialHold } from "@cpay/sdk/agent-confidential";
import type { Address } from "@solana/kit";
import { beforeAll, describe, expect, it } from "vitest";
import {
  type AgentConfidentialWorld,
  createAgentConfidentialWorld,
} from "../support/agent-confidential-world";
import { beforeFinalWithPlanned } from "../support/planned-contexts";
import { accountBytes } from "../support/plant-account";
import { DEFAULT_POLICY } from "../support/policy-world";
import { usdgDecimal } from "../support/usdg-units";

const PER_TRANSACTION_LIMIT = 3_000_000_000_000n;
const DAILY_LIMIT = 5_000_000_000_000n;
const HITL_THRESHOLD = 2_000_000_000_000n;
const POLICY = {
  ...DEFAULT_POLICY,
  per_transaction_limit_usdg: "3000000",
  daily_limit_usdg: "5000000",
  hitl_threshold_usdg: "2000000",
};

const DEPOSIT = 8_123_456_789_012n; // public: the positive control
const EXECUTED = 1_414_213_562_373n; // below the HITL threshold: executed
const HELD = 2_718_281_828_459n; // above it: held, then approved
const SECRETS = {
  EXECUTED,
  HELD,
  "total after both": EXECUTED + HELD,
  "balance after the executed one": DEPOSIT - EXECUTED,
  "balance after both": DEPOSIT - EXECUTED - HELD,
  "executed: hitl - a": HITL_THRESHOLD - EXECUTED,
  "executed: daily - a": DAILY_LIMIT - EXECUTED,
  "held: per_tx - a": PER_TRANSACTION_LIMIT - HELD,
  "held: daily - total": DAILY_LIMIT - EXECUTED - HELD,
};

let world: AgentConfidentialWorld;
const blobs: Buffer[] = [];
const texts: string[] = [];
const flowSignatures: string[] = [];
const searchedSignatures = new Set<string>();
let eventPayloads = 0;

/** Captures the contexts and any staging buffer just before the final transaction. */
const capturing = () =>
  beforeFinalWithPlanned((planned) => {
    // Every context exists by now (staged ones are allocated, verified in the final transaction).
    for (const context of Object.values(planned))
      blobs.push(Buffer.from(accountBytes(world.cluster, context)));
    for (const buffer of world.cluster.getProgramAccounts(BPF_LOADER_UPGRADEABLE_ADDRESS)) {
      blobs.push(Buffer.from(buffer.data));
    }
  });

beforeAll(async () => {
  world = await createAgentConfidentialWorld({ policy: POLICY });
  await world.cluster.mintUsdgToOwner(world.agent.address, DEPOSIT);
  await world.setupAgent();
  await world.fundAgent(DEPOSIT);
  const bob = await world.confidentialRecipient("bob");
  const returned: unknown[] = [];
  const executed = await world.confidentialTransfer({ amount: EXECUTED, ...capturing() });
  const held = await world.confidentialTransfer({ amount: HELD, ...capturing() });
  returned.push(executed, held);
  const pending = held.pending as Address;
  blobs.push(Buffer.from(accountBytes(world.cluster, pending)));
  returned.push(await world.holds());
  const approval = await approveConfidentialHold(world.chain, {
    owner: world.agent.owner,
    pending,
    payer: world.feePayer,
  });
  returned.push(approval);
  flowSignatures.push(...executed.signatures, ...held.signatures, approval.signature);

  for (const address of [
    world.agent.address,
    world.agent.policy,
    world.agent.usdg,
    bob.usdg,
    pending,
    world.feePayer.address,
  ]) {
    for (const { signature } of world.cluster.getSignaturesForAddress(address))
      searchedSignatures.add(signature);
  }
  for (const signature of searchedSignatures) {
    const record = world.cluster.getTransaction(signature);
    if (record === null) throw new Error(`missing ${signature}`);
    blobs.push(Buffer.from(record.wire));
    for (const group of record.innerInstructions) {
      for (const inner of group.instructions) blobs.push(Buffer.from(inner.data));
    }
    if (record.returnData !== null) blobs.push(Buffer.from(record.returnData.data));
    for (const line of record.logs) {
      texts.push(line);
      // Events and return data are logged base64: search their bytes too.
      const encoded = /^Program (?:data|return): (?:\S+ )?(\S+)$/.exec(line)?.[1];
      if (encoded !== undefined) {
        blobs.push(Buffer.from(encoded, "base64"));
        eventPayloads++;
      }
    }
  }
  for (const address of [world.agent.address, world.agent.policy, world.agent.usdg, bob.usdg]) {
    blobs.push(Buffer.from(accountBytes(world.cluster, address)));
  }
  texts.push(
    JSON.stringify(returned, (_key, value) => (typeof value === "bigint" ? value.toString() : value)),
  );
});

const u64le = (value: bigint) => {
  const bytes = Buffer.alloc(8);
  bytes.writeBigUInt64LE(value);
  return bytes;
};
const u32le = (value: bigint) => {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32LE(Number(value));
  return bytes;
};

/** Where `value` appears, by encoding (see the file doc). */
function leaks(value: bigint): string[] {
  const lo = value & 0xffffn;
  const hi = (value >> 16n) & 0xffff_ffffn;
  const needles: [string, Buffer][] = [
    ["u64", u64le(value)],
    ["low u32", u32le(value & 0xffff_ffffn)],
  ];
  if (hi >= 1n << 20n) needles.push(["high half u32", u32le(hi)]);
  const found = needles
    .filter(([, needle]) => blobs.some((blob) => blob.includes(needle)))
    .map(([name]) => name);
  const words: [string, string][] = [
    ["decimal", value.toString()],
    ["ui amount", usdgDecimal(value)],
    ["hex", value.toString(16)],
  ];
  if (hi >= 10_000n) words.push(["high half decimal", hi.toString()]);
  if (lo >= 10_000n) words.push(["low half decimal", lo.toString()]);
  for (const [name, needle] of words) if (texts.some((text) => text.includes(needle))) found.push(name);
  return found;
}

describe("plaintext canary, agent path", () => {
  it("Given the flows ran, Then the recipient and the agent decrypt the distinctive amounts", async () => {
    expect(await world.recipientPending()).toBe(EXECUTED + HELD);
    expect(world.agentAvailable()).toBe(DEPOSIT - EXECUTED - HELD);
    expect(world.proverState().confidentialSpentToday).toBe(EXECUTED + HELD);
  });

  it("Given the search, Then it covers every transaction of both transfers and of the approval, and the events' bytes", () => {
    expect(flowSignatures).toHaveLength(13);
    expect(flowSignatures.filter((signature) => !searchedSignatures.has(signature))).toEqual([]);
    // At least ConfidentialTransferExecuted (twice), TransactionHeld and TransactionApproved.
    expect(eventPayloads).toBeGreaterThanOrEqual(4);
  });

  it("Given the public deposit (positive control), Then the search finds it in every byte encoding", () => {
    expect(leaks(DEPOSIT)).toEqual(expect.arrayContaining(["u64", "low u32", "high half u32"]));
  });

  it("Given everything the flows produced, Then no amount, running total, balance or headroom appears in any encoding", () => {
    for (const [name, value] of Object.entries(SECRETS)) {
      expect({ name, leaks: leaks(value) }).toEqual({ name, leaks: [] });
    }
  });
});
