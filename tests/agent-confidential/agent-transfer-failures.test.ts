/**
 * Failure injected at every transaction of an agent confidential transfer: the error names the
 * step, nothing moved, every context the attempt created is closed (those verified for the agent
 * PDA through `agent_confidential_close_contexts`, signed by the agent signer), the staging buffer
 * is given back, and a retry succeeds.
 */

import { BPF_LOADER_UPGRADEABLE_ADDRESS } from "@cpay/localnet/cluster";
import { transferAgentConfidential } from "@cpay/sdk/agent-confidential";
import { type ConfidentialStep, isConfidentialError } from "@cpay/sdk/confidential";
import { describe, expect, it } from "vitest";
import { failingNthSubmission } from "../confidential/support";
import { fundedAgentSuite } from "../support/agent-confidential-world";
import { transferId, usdg } from "../support/policy-world";

const given = fundedAgentSuite({ funds: usdg(300), recipient: "bob" });
let attempt = 1;

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
      const bob = await given.world.confidentialRecipient("bob");
      const availableBefore = given.world.agentAvailable();
      const pendingBefore = await given.world.recipientPending();
      const payerBefore = given.world.lamports(given.world.feePayer.address);
      const loaderBefore = given.world.cluster.getProgramAccounts(BPF_LOADER_UPGRADEABLE_ADDRESS).length;
      const input = {
        agentSigner: given.world.agent.signer,
        agent: given.world.agent.address,
        keys: given.world.agentKeys(),
        mint: given.world.usdgMint,
        recipient: bob.handle,
        amount: usdg(10),
        payer: given.world.feePayer,
      };
      const error = await transferAgentConfidential(failingNthSubmission(given.world.chain, failAt), {
        ...input,
        transferId: transferId(attempt++),
      }).catch((caught: unknown) => caught);
      expect(isConfidentialError(error, "step_failed", step)).toBe(true);
      if (!isConfidentialError(error)) throw error;
      expect(error.contexts).toHaveLength(6);
      for (const context of error.contexts) {
        expect(context.outcome).not.toBe("orphaned");
        expect(given.world.cluster.getAccount(context.address)).toBeNull();
      }
      expect(given.world.cluster.getProgramAccounts(BPF_LOADER_UPGRADEABLE_ADDRESS)).toHaveLength(
        loaderBefore,
      );
      expect(given.world.agentAvailable()).toBe(availableBefore);
      expect(await given.world.recipientPending()).toBe(pendingBefore);
      expect(payerBefore - given.world.lamports(given.world.feePayer.address)).toBeLessThan(FEES_ONLY);

      const retry = await transferAgentConfidential(given.world.chain, {
        ...input,
        transferId: transferId(attempt++),
      });
      expect(retry.outcome).toBe("executed");
      expect(given.world.agentAvailable()).toBe(availableBefore - usdg(10));
    },
  );
});
