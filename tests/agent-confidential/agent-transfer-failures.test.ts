/**
 * Failure injected at every transaction of an agent confidential transfer: the error names the
 * step, nothing moved, every context the attempt created is closed (those verified for the agent
 * PDA through `agent_confidential_close_contexts`, signed by the agent signer), the staging buffer
 * is given back, and a retry succeeds.
 */

import { BPF_LOADER_UPGRADEABLE_ADDRESS } from "@cpay/localnet/cluster";
import { transferAgentConfidential } from "@cpay/sdk/agent-confidential";
import { type ConfidentialStep, isConfidentialError } from "@cpay/sdk/confidential";
import { beforeAll, describe, expect, it } from "vitest";
import { failingNthSubmission } from "../confidential/support";
import { type AgentConfidentialWorld, createFundedAgentWorld } from "../support/agent-confidential-world";
import { transferId, usdg } from "../support/policy-world";

let world: AgentConfidentialWorld;
let attempt = 1;

beforeAll(async () => {
  world = await createFundedAgentWorld({ funds: usdg(300), recipient: "bob" });
});

/** Fees of the transactions an attempt lands (and its clean-up) are far below any context's rent. */
const FEES_ONLY = 100_000n;

describe("an agent confidential transfer failing at each step", () => {
  const steps: [number, ConfidentialStep][] = [
    [1, "equality_proof"],
    [2, "ciphertext_validity_proof"],
    [3, "limit_equality_transaction_proof"],
    [4, "limit_range_proof"],
    [5, "range_proof"],
    [6, "transfer"],
  ];

  it.each(steps)(
    "Given submission %i fails, Then the %s step is named, nothing moved, contexts and buffer are closed, and a retry succeeds",
    async (failAt, step) => {
      const bob = await world.confidentialRecipient("bob");
      const availableBefore = world.agentAvailable();
      const pendingBefore = await world.recipientPending();
      const payerBefore = world.lamports(world.feePayer.address);
      const loaderBefore = world.cluster.getProgramAccounts(BPF_LOADER_UPGRADEABLE_ADDRESS).length;
      const input = {
        agentSigner: world.agent.signer,
        agent: world.agent.address,
        keys: world.agentKeys(),
        mint: world.usdgMint,
        recipient: bob.handle,
        amount: usdg(10),
        payer: world.feePayer,
      };
      const error = await transferAgentConfidential(failingNthSubmission(world.chain, failAt), {
        ...input,
        transferId: transferId(attempt++),
      }).catch((caught: unknown) => caught);
      expect(isConfidentialError(error, "step_failed", step)).toBe(true);
      if (!isConfidentialError(error)) throw error;
      expect(error.contexts).toHaveLength(6);
      for (const context of error.contexts) {
        expect(context.outcome).not.toBe("orphaned");
        expect(world.cluster.getAccount(context.address)).toBeNull();
      }
      expect(world.cluster.getProgramAccounts(BPF_LOADER_UPGRADEABLE_ADDRESS)).toHaveLength(loaderBefore);
      expect(world.agentAvailable()).toBe(availableBefore);
      expect(await world.recipientPending()).toBe(pendingBefore);
      expect(payerBefore - world.lamports(world.feePayer.address)).toBeLessThan(FEES_ONLY);

      const retry = await transferAgentConfidential(world.chain, {
        ...input,
        transferId: transferId(attempt++),
      });
      expect(retry.outcome).toBe("executed");
      expect(world.agentAvailable()).toBe(availableBefore - usdg(10));
    },
  );
});
