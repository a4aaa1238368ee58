/**
 * Compute units of the agent-policy program's instructions against a bare Token-2022
 * `TransferChecked` of USDG, both executed in the same embedded cluster run. Instructions are built
 * with the SDK (`@cpay/sdk`), as clients build them.
 */

import { createEmbeddedCluster, type EmbeddedCluster, USDG_DECIMALS } from "@cpay/localnet/cluster";
import { buildConfigInitializeInstruction } from "@cpay/sdk";
import { type Address, generateKeyPairSigner, type Instruction, type KeyPairSigner } from "@solana/kit";
import { getTransferCheckedInstruction } from "@solana-program/token-2022";
import { sendToCluster } from "../support/cluster-send";
import type { BenchEntry, BenchResult } from "./bench-entry";

/** Lands `instructions` and returns their compute units; a failure aborts the bench. */
async function computeUnitsOf(
  cluster: EmbeddedCluster,
  payer: KeyPairSigner,
  instructions: readonly Instruction[],
): Promise<number> {
  const outcome = await sendToCluster(cluster, { payer, instructions });
  if (outcome.err !== null || outcome.rejected !== null) {
    throw new Error(
      `bench transaction failed: ${JSON.stringify(outcome.err ?? outcome.rejected)}\n${outcome.logs.join("\n")}`,
    );
  }
  return outcome.computeUnits;
}

async function bareTransferChecked(cluster: EmbeddedCluster): Promise<number> {
  const sender = await generateKeyPairSigner();
  const receiver = await generateKeyPairSigner();
  cluster.requestAirdrop(sender.address, 1_000_000_000n);
  const from = await cluster.mintUsdgToOwner(sender.address, 1_000_000n);
  const to = await cluster.mintUsdgToOwner(receiver.address, 0n);
  return computeUnitsOf(cluster, sender, [
    getTransferCheckedInstruction({
      source: from.tokenAccount as Address,
      mint: cluster.usdgMint as Address,
      destination: to.tokenAccount as Address,
      authority: sender,
      amount: 1n,
      decimals: USDG_DECIMALS,
    }),
  ]);
}

export const programComputeUnits: BenchEntry = {
  name: "program compute units",
  async run(): Promise<BenchResult[]> {
    const cluster = await createEmbeddedCluster({ slotMs: 0 });
    try {
      const baseline = await bareTransferChecked(cluster);
      const admin = await cluster.keys.programUpgradeAuthority.toSigner();
      const configInitialize = await computeUnitsOf(cluster, admin, [
        await buildConfigInitializeInstruction({ admin, registrar: admin.address }),
      ]);
      return [
        {
          name: "config_initialize (2 PDA finds + CreateAccount CPI)",
          unit: "CU",
          value: configInitialize,
          baselineName: "Token-2022 TransferChecked",
          baseline,
        },
      ];
    } finally {
      cluster.stop();
    }
  },
};
