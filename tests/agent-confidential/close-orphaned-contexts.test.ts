/**
 * Contexts whose authority is the agent PDA can only be closed through the program: the recovery
 * path for a run that died between its proofs and its final transaction. Only the agent's owner or
 * signer may use it, never while a confidential hold is open (its pinned contexts must survive),
 * and the rent goes to the receiver named.
 */
import {
  buildAgentConfidentialCloseContextsInstruction,
  closeAgentProofContexts,
  rejectHold,
} from "@cpay/sdk/agent-confidential";
import { zk } from "@cpay/sdk/confidential";
import { type Address, address, generateKeyPairSigner } from "@solana/kit";
import { getCreateAccountInstruction } from "@solana-program/system";
import {
  CIPHERTEXT_COMMITMENT_EQUALITY_CONTEXT_ACCOUNT_SIZE,
  getVerifyProofInstruction,
  ZK_ELGAMAL_PROOF_PROGRAM_ADDRESS,
  ZkElGamalProofInstruction,
} from "@solana-program/zk-elgamal-proof";
import { describe, expect, it } from "vitest";
import { fundedAgentSuite } from "../support/agent-confidential-world";
import { usdg } from "../support/policy-world";

describe("closing orphaned agent contexts", () => {
  const given = fundedAgentSuite({ funds: usdg(100), recipient: "bob" });

  /** A verified equality context with the agent PDA as authority, as a dead run leaves behind. */
  async function orphan(): Promise<Address> {
    const keys = given.world.agentKeys();
    const opening = new zk.PedersenOpening();
    const proof = new zk.CiphertextCommitmentEqualityProofData(
      keys.elgamal,
      keys.elgamal.pubkey().encryptU64(7n),
      zk.PedersenCommitment.from(7n, opening),
      opening,
      7n,
    ).toBytes();
    const account = await generateKeyPairSigner();
    const landed = await given.world.send(
      [
        getCreateAccountInstruction({
          payer: given.world.feePayer,
          newAccount: account,
          lamports: given.world.cluster.minimumBalanceForRentExemption(
            CIPHERTEXT_COMMITMENT_EQUALITY_CONTEXT_ACCOUNT_SIZE,
          ),
          space: CIPHERTEXT_COMMITMENT_EQUALITY_CONTEXT_ACCOUNT_SIZE,
          programAddress: ZK_ELGAMAL_PROOF_PROGRAM_ADDRESS,
        }),
        getVerifyProofInstruction({
          discriminator: ZkElGamalProofInstruction.VerifyCiphertextCommitmentEquality,
          contextState: account.address,
          contextStateAuthority: given.world.agent.address,
          proofData: proof,
        }),
      ],
      { signers: [account] },
    );
    expect(landed.err).toBeNull();
    return account.address;
  }

  const close = (context: Address, authority = given.world.agent.signer) =>
    closeAgentProofContexts(given.world.chain, {
      authority,
      agent: given.world.agent.address,
      payer: given.world.feePayer,
      addresses: [context],
    });

  /** The program's answer to closing `context` with `authority` signing. */
  const closeDirectly = async (context: Address, authority = given.world.agent.signer) =>
    (
      await given.world.send(
        [
          buildAgentConfidentialCloseContextsInstruction({
            authority,
            agent: given.world.agent.address,
            // Not the SDK's receiver: with the world's frozen blockhash an identical transaction
            // would be refused as a duplicate, not by the program.
            rentReceiver: given.world.stranger.address,
            contexts: [context],
            programAddress: address(given.world.cluster.programId),
          }),
        ],
        { signers: [authority] },
      )
    ).error;

  it("Given a stranger, Then the program refuses to close the agent's context (NotAgentSigner)", async () => {
    const context = await orphan();
    expect(await closeDirectly(context, given.world.stranger)).toBe("NotAgentSigner");
    expect(given.world.cluster.getAccount(context)).not.toBeNull();
  });

  it("Given an open confidential hold, Then nothing is closed; once it is rejected, the agent signer closes the context and the payer gets its rent", async () => {
    const context = await orphan();
    const held = await given.world.confidentialTransfer({ amount: usdg(60) });
    expect(held.outcome).toBe("held");
    expect(await closeDirectly(context)).toBe("ConfidentialHoldOpen");
    expect(given.world.cluster.getAccount(context)).not.toBeNull();

    await rejectHold(given.world.chain, {
      owner: given.world.agent.owner,
      pending: held.pending as Address,
      payer: given.world.feePayer,
    });
    const rent = given.world.cluster.getAccount(context)?.lamports ?? 0n;
    const before = given.world.lamports(given.world.feePayer.address);
    expect(await close(context)).toEqual([]);
    expect(given.world.cluster.getAccount(context)).toBeNull();
    // The payer paid one fee and got the context's rent back.
    expect(given.world.lamports(given.world.feePayer.address)).toBeGreaterThan(
      before + BigInt(rent) - 20_000n,
    );
  });
});
