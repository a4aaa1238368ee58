/**
 * What the policy costs: the compute units of an `agent_transfer` on its immediate path (every
 * check — signer, agent, policy link, token side, asset, recipient, active hours, per-transaction,
 * daily, HITL — plus the Token-2022 `TransferChecked` CPI signed by the agent PDA and the event)
 * against a bare `TransferChecked` of the same mint between two wallets' accounts, all landed in
 * the same embedded cluster run. Measured twice: under the cheapest policy (any recipient, all
 * day) and under a typical one (two recipient patterns, the recipient proved by its Handle, active
 * hours). The goal: the policy at most doubles a transfer's cost.
 */
import { USDG_DECIMALS } from "@cpay/localnet/cluster";
import { getTransferCheckedInstruction } from "@solana-program/token-2022";
import type { Outcome } from "../support/cluster-send";
import { createPolicyWorld } from "../support/policy-world";
import type { BenchEntry, BenchResult } from "./bench-entry";

function landed(what: string, outcome: Outcome): number {
  if (outcome.err !== null) {
    throw new Error(`${what} failed: ${JSON.stringify(outcome.err)}\n${outcome.logs.join("\n")}`);
  }
  return outcome.computeUnits;
}

export const agentTransferComputeUnits: BenchEntry = {
  name: "agent_transfer compute units",
  async run(): Promise<BenchResult[]> {
    // The world's default policy: any recipient, all day (the cheapest rules to evaluate)
    const world = await createPolicyWorld();
    try {
      const baseline = landed(
        "bare TransferChecked",
        await world.send([
          getTransferCheckedInstruction({
            source: world.alice.usdg,
            mint: world.usdgMint,
            destination: world.recipients.bob.usdg,
            authority: world.alice.wallet,
            amount: 1n,
            decimals: USDG_DECIMALS,
          }),
        ]),
      );
      const minimal = landed(
        "agent_transfer (any recipient)",
        await world.transfer({ amount: 1n, to: "bob", recipientHandle: null }),
      );
      // A policy as owners write them: recipient patterns (matched through bob's Handle) and hours
      landed(
        "policy_update",
        await world.updatePolicy({ allowed_recipients: ["*.acme", "bob"], active_hours: "06:00-22:00" }),
      );
      const typical = landed("agent_transfer (patterns)", await world.transfer({ amount: 1n, to: "bob" }));
      const row = (name: string, value: number): BenchResult => ({
        name,
        unit: "CU",
        value,
        baselineName: "Token-2022 TransferChecked",
        baseline,
        goal: 2,
      });
      return [
        row("agent_transfer, immediate path, any recipient, all day", minimal),
        row("agent_transfer, immediate path, 2 patterns + handle proof + hours", typical),
      ];
    } finally {
      world.cluster.stop();
    }
  },
};
