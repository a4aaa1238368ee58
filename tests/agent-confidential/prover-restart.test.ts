/**
 * The prover state survives a restart with nothing stored locally: an agent that kept only its
 * 32-byte confidential secret rebuilds today's total from the Policy account alone. First in a
 * fresh Node process (no module, key or SDK object of this one: it gets the exported key, the
 * Policy bytes and the cluster time), then here with keys re-derived from the secret, which make
 * the next spends — the SDK rebuilds the state from chain on every transfer, the keys are all it is
 * given. Yesterday's spends and an open hold do not count; an approved hold does.
 */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import {
  approveConfidentialHold,
  isPolicyLimitExceeded,
  readProverState,
  transferAgentConfidential,
} from "@cpay/sdk/agent-confidential";
import {
  type ConfidentialKeyset,
  deriveConfidentialKeys,
  exportConfidentialSecret,
  importConfidentialSecret,
  readConfidentialState,
} from "@cpay/sdk/confidential";
import type { Address } from "@solana/kit";
import { beforeAll, describe, expect, it } from "vitest";
import {
  type AgentConfidentialWorld,
  createFundedAgentWorld,
  testConfidentialSecret,
} from "../support/agent-confidential-world";
import { accountBytes } from "../support/plant-account";
import { DAILY_LIMIT, SECONDS_PER_DAY, transferId, usdg, utc } from "../support/policy-world";

const tsx = fileURLToPath(new URL("../../node_modules/.bin/tsx", import.meta.url));
const fixture = fileURLToPath(new URL("./fixtures/rebuild-prover-state.ts", import.meta.url));

interface Rebuilt {
  readonly elgamalPubkey: string;
  readonly today?: string;
  readonly total?: string;
  readonly source?: string;
  readonly error?: string;
}

/** The restarted process's answers: one per (exported key, unix time), from the current Policy bytes. */
function restartedProcess(
  world: AgentConfidentialWorld,
  restarts: readonly { readonly exportedKey: string; readonly unixTime: bigint }[],
): Rebuilt[] {
  const data = accountBytes(world.cluster, world.agent.policy);
  const policy = { address: world.agent.policy, base64: Buffer.from(data).toString("base64") };
  const input = restarts.map((restart) => ({ ...restart, policy, unixTime: restart.unixTime.toString() }));
  const output = execFileSync(tsx, [fixture], { input: JSON.stringify(input), encoding: "utf8" });
  return JSON.parse(output.trim().split("\n").at(-1) ?? "");
}

describe("the prover state after a restart", () => {
  let world: AgentConfidentialWorld;
  let exported: string;
  let openHold: Address;
  let next = 1;

  /** Keys derived afresh from the exported key alone: no object of an earlier run. */
  const restartedKeys = (): ConfidentialKeyset => deriveConfidentialKeys(importConfidentialSecret(exported));

  /** Today's total, rebuilt from the Policy account with `keys`. */
  const rebuild = async (keys: ConfidentialKeyset) => {
    const state = await readProverState(world.chain, { policy: world.agent.policy, keys });
    return { total: state.confidentialSpentToday, source: state.source };
  };

  /** A spend the way a restarted agent makes it: its signer, fresh keys, everything else read from chain. */
  const spend = (keys: ConfidentialKeyset, amount: bigint) =>
    transferAgentConfidential(world.chain, {
      agentSigner: world.agent.signer,
      agent: world.agent.handle,
      keys,
      mint: world.usdgMint,
      recipient: "bob",
      amount,
      transferId: transferId(5_000 + next++),
      payer: world.feePayer,
    });

  beforeAll(async () => {
    world = await createFundedAgentWorld({ funds: usdg(500), recipient: "bob" });
    exported = exportConfidentialSecret(world.agentSecret());
    // Yesterday (day 0): 30. Today (day 1): 40 + 25 executed, 60 held and approved, 70 held (open).
    await world.confidentialTransfer({ amount: usdg(30) });
    world.at(utc(1, 10));
    await world.confidentialTransfer({ amount: usdg(40) });
    await world.confidentialTransfer({ amount: usdg(25) });
    const approved = await world.confidentialTransfer({ amount: usdg(60) });
    await approveConfidentialHold(world.chain, {
      owner: world.agent.owner,
      pending: approved.pending as Address,
      payer: world.feePayer,
    });
    const open = await world.confidentialTransfer({ amount: usdg(70) });
    expect(open.outcome).toBe("held");
    openHold = open.pending as Address;
  });

  it("Given only the exported secret and the chain, When a fresh process rebuilds the state, Then its total is today's spends (40 + 25 + 60, not yesterday's 30 nor the open hold's 70); another key is refused", async () => {
    const configured = (await readConfidentialState(world.chain, world.agent.usdg))?.elgamalPubkey;
    const foreign = exportConfidentialSecret(testConfidentialSecret("someone else"));
    const [own, other, tomorrow] = restartedProcess(world, [
      { exportedKey: exported, unixTime: world.now() },
      { exportedKey: foreign, unixTime: world.now() },
      // The same bytes read at the next UTC midnight: nothing counts any more.
      { exportedKey: exported, unixTime: utc(2, 0) },
    ]);
    expect(own).toEqual({
      elgamalPubkey: Buffer.from(configured ?? []).toString("base64"),
      today: (utc(1, 10) / SECONDS_PER_DAY).toString(),
      total: usdg(125).toString(),
      source: "decryptable",
    });
    expect(other?.error).toBe("account_key_mismatch");
    expect(tomorrow).toMatchObject({ total: "0", source: "new_day" });
  });

  it("Given keys re-derived here from the secret alone, Then the rebuilt total matches, and the owner's approval of the open hold adds to it", async () => {
    expect(await rebuild(restartedKeys())).toEqual({ total: usdg(125), source: "decryptable" });
    await approveConfidentialHold(world.chain, {
      owner: world.agent.owner,
      pending: openHold,
      payer: world.feePayer,
    });
    expect(await rebuild(restartedKeys())).toEqual({ total: usdg(195), source: "decryptable" });
  });

  it("Given the restarted agent, Then its next spend executes, the total continues from the rebuilt one, and what is left of the day is enforced from it", async () => {
    expect((await spend(restartedKeys(), usdg(20))).outcome).toBe("executed");
    expect(await rebuild(restartedKeys())).toEqual({ total: usdg(215), source: "decryptable" });
    const left = DAILY_LIMIT - usdg(215);
    const over = await spend(restartedKeys(), left + 1n).catch((caught: unknown) => caught);
    expect(isPolicyLimitExceeded(over, "daily")).toBe(true);
    expect((await spend(restartedKeys(), left)).outcome).toBe("executed");
    expect(await rebuild(restartedKeys())).toEqual({ total: DAILY_LIMIT, source: "decryptable" });
  });
});
