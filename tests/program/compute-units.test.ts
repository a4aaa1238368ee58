/**
 * Compute-unit ceilings per instruction of the real program (token-2022's
 * `assert_instruction_count` style): each path is run once on the deterministic world (same keys,
 * same PDA bumps, so the same count every run) and must stay at or below its ceiling, pinned ~5%
 * above the last measurement. A regression fails here; an improvement is a reason to lower the
 * ceiling and update `last measured`. Counts include the CPIs an instruction makes (System
 * CreateAccount, Token-2022 TransferChecked).
 */

import { createEmbeddedCluster } from "@cpay/localnet/cluster";
import {
  buildAgentCreateInstruction,
  buildConfigInitializeInstruction,
  buildReceiptCloseInstruction,
  buildTransferRecordInstruction,
  findReceiptPda,
  RECEIPT_MIN_AGE_SLOTS,
} from "@cpay/sdk";
import { beforeAll, describe, expect, it } from "vitest";
import { type Outcome, sendToCluster } from "../support/cluster-send";
import { createPolicyWorld, DEFAULT_POLICY, transferId, usdg, utc } from "../support/policy-world";
import { registerForStranger } from "../support/stranger-handle";
import { testSigner } from "../support/test-keys";

const CEILINGS = {
  // last measured 9683
  config_initialize: 10_180,
  // last measured 3854
  handle_register: 4_050,
  // last measured 15125
  agent_create: 15_890,
  // last measured 907
  "policy_update (one field)": 950,
  // last measured 9982
  "policy_update (16 recipient patterns)": 10_480,
  // last measured 4541
  "agent_transfer (executes, no recipient handle)": 4_780,
  // last measured 4579
  "agent_transfer (executes, recipient handle)": 4_820,
  // last measured 4983
  "agent_transfer (executes, 16 suffix patterns, the last one matching)": 5_240,
  // last measured 4413
  "agent_transfer (held: creates the pending PDA)": 4_640,
  // last measured 5153
  pending_approve: 5_340,
  // last measured 791
  pending_reject: 870,
  // last measured 771
  pending_close_expired: 820,
  // last measured 4304 (4297 before it stored the rent payer and the slot)
  "transfer_record (256-byte memo)": 4_510,
  // last measured 1894 (~1.5k of it the receipt's PDA re-derivation)
  receipt_close: 1_990,
} as const;

type Measured = keyof typeof CEILINGS;

describe("compute units per instruction", () => {
  const measured = new Map<Measured, Outcome>();

  beforeAll(async () => {
    // config_initialize needs a cluster whose config does not exist yet
    const cluster = await createEmbeddedCluster({ slotMs: 0 });
    const admin = await cluster.keys.programUpgradeAuthority.toSigner();
    const registrar = await testSigner("registrar");
    measured.set(
      "config_initialize",
      await sendToCluster(cluster, {
        payer: admin,
        instructions: [await buildConfigInitializeInstruction({ admin, registrar: registrar.address })],
      }),
    );
    cluster.stop();

    // Everything else, in this order, on the policy world
    const world = await createPolicyWorld();
    measured.set("handle_register", await world.send([await registerForStranger(world, "carol")]));
    const created = await buildAgentCreateInstruction({
      owner: world.alice.wallet,
      ownerHandle: "alice",
      name: "cubot",
      agentSigner: world.stranger.address,
      policy: { ...DEFAULT_POLICY, allowed_recipients: ["*.acme", "bob"] },
      payer: world.feePayer,
      assets: world.assets,
    });
    measured.set("agent_create", await world.send([created.instruction]));
    measured.set("policy_update (one field)", await world.updatePolicy({ daily_limit_usdg: "300" }));
    measured.set(
      "agent_transfer (executes, no recipient handle)",
      await world.transfer({ amount: 1n, recipientHandle: null }),
    );
    measured.set("agent_transfer (executes, recipient handle)", await world.transfer({ amount: 1n }));
    const approved = await world.pendingAddress(0n);
    measured.set(
      "agent_transfer (held: creates the pending PDA)",
      await world.transfer({ amount: usdg(60) }),
    );
    measured.set("pending_approve", await world.approve(approved));
    const rejected = await world.pendingAddress(1n);
    expect((await world.transfer({ amount: usdg(60) })).err).toBeNull();
    measured.set("pending_reject", await world.reject(rejected));
    const expired = await world.pendingAddress(2n);
    expect((await world.transfer({ amount: usdg(60) })).err).toBeNull();
    world.at(utc(1, 13));
    measured.set("pending_close_expired", await world.closeExpired(expired));
    measured.set(
      "transfer_record (256-byte memo)",
      await world.send([
        await buildTransferRecordInstruction({
          sender: world.feePayer,
          payer: world.feePayer,
          transferId: transferId(1),
          confidential: false,
          memo: new Uint8Array(256).fill(0xab),
          source: world.alice.usdg,
          destination: world.recipients.bob.usdg,
          mint: world.usdgMint,
        }),
      ]),
    );
    const [receipt] = await findReceiptPda(
      { sender: world.feePayer.address, transferId: transferId(1) },
      { programAddress: world.programId },
    );
    // The send produces the last slot of the minimum age
    world.cluster.clock.advance(Number(RECEIPT_MIN_AGE_SLOTS) - 1);
    measured.set(
      "receipt_close",
      await world.send([
        buildReceiptCloseInstruction({
          receipt,
          rentReceiver: world.feePayer,
          programAddress: world.programId,
        }),
      ]),
    );
    const sixteen = [...Array.from({ length: 15 }, (_, i) => `*.acme${i}`), "*.acme"];
    measured.set(
      "policy_update (16 recipient patterns)",
      await world.updatePolicy({ allowed_recipients: sixteen }),
    );
    measured.set(
      "agent_transfer (executes, 16 suffix patterns, the last one matching)",
      await world.transfer({ amount: 1n, to: "pay.acme" }),
    );
    console.info([...measured].map(([name, outcome]) => `${name}: ${outcome.computeUnits} CU`).join("\n"));
  });

  it.each(Object.entries(CEILINGS) as [Measured, number][])("%s stays at or below %i CU", (name, ceiling) => {
    const outcome = measured.get(name);
    expect(outcome?.err, outcome?.logs.join("\n")).toBeNull();
    expect(outcome?.computeUnits).toBeGreaterThan(0);
    expect(outcome?.computeUnits).toBeLessThanOrEqual(ceiling);
  });
});
