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
import { beforeAll, describe, expect, it } from "vitest";
import { type AgentConfidentialWorld, createFundedAgentWorld } from "../support/agent-confidential-world";
import { usdg } from "../support/policy-world";

describe("closing orphaned agent contexts", () => {
  let world: AgentConfidentialWorld;

  beforeAll(async () => {
    world = await createFundedAgentWorld({ funds: usdg(100), recipient: "bob" });
  });

  /** A verified equality context with the agent PDA as authority, as a dead run leaves behind. */
  async function orphan(): Promise<Address> {
    const keys = world.agentKeys();
    const opening = new zk.PedersenOpening();
    const proof = new zk.CiphertextCommitmentEqualityProofData(
      keys.elgamal,
      keys.elgamal.pubkey().encryptU64(7n),
      zk.PedersenCommitment.from(7n, opening),
      opening,
      7n,
    ).toBytes();
    const account = await generateKeyPairSigner();
    const landed = await world.send(
      [
        getCreateAccountInstruction({
          payer: world.feePayer,
          newAccount: account,
          lamports: world.cluster.minimumBalanceForRentExemption(
            CIPHERTEXT_COMMITMENT_EQUALITY_CONTEXT_ACCOUNT_SIZE,
          ),
          space: CIPHERTEXT_COMMITMENT_EQUALITY_CONTEXT_ACCOUNT_SIZE,
          programAddress: ZK_ELGAMAL_PROOF_PROGRAM_ADDRESS,
        }),
        getVerifyProofInstruction({
          discriminator: ZkElGamalProofInstruction.VerifyCiphertextCommitmentEquality,
          contextState: account.address,
          contextStateAuthority: world.agent.address,
          proofData: proof,
        }),
      ],
      { signers: [account] },
    );
    expect(landed.err).toBeNull();
    return account.address;
  }

  const close = (context: Address, authority = world.agent.signer) =>
    closeAgentProofContexts(world.chain, {
      authority,
      agent: world.agent.address,
      payer: world.feePayer,
      addresses: [context],
    });

  /** The program's answer to closing `context` with `authority` signing. */
  const closeDirectly = async (context: Address, authority = world.agent.signer) =>
    (
      await world.send(
        [
          buildAgentConfidentialCloseContextsInstruction({
            authority,
            agent: world.agent.address,
            // Not the SDK's receiver: with the world's frozen blockhash an identical transaction
            // would be refused as a duplicate, not by the program.
            rentReceiver: world.stranger.address,
            contexts: [context],
            programAddress: address(world.cluster.programId),
          }),
        ],
        { signers: [authority] },
      )
    ).error;

  it("Given a stranger, Then the program refuses to close the agent's context (NotAgentSigner)", async () => {
    const context = await orphan();
    expect(await closeDirectly(context, world.stranger)).toBe("NotAgentSigner");
    expect(world.cluster.getAccount(context)).not.toBeNull();
  });

  it("Given an open confidential hold, Then nothing is closed; once it is rejected, the agent signer closes the context and the payer gets its rent", async () => {
    const context = await orphan();
    const held = await world.confidentialTransfer({ amount: usdg(60) });
    expect(held.outcome).toBe("held");
    expect(await closeDirectly(context)).toBe("ConfidentialHoldOpen");
    expect(world.cluster.getAccount(context)).not.toBeNull();

    await rejectHold(world.chain, {
      owner: world.agent.owner,
      pending: held.pending as Address,
      payer: world.feePayer,
    });
    const rent = world.cluster.getAccount(context)?.lamports ?? 0n;
    const before = world.lamports(world.feePayer.address);
    expect(await close(context)).toEqual([]);
    expect(world.cluster.getAccount(context)).toBeNull();
    // The payer paid one fee and got the context's rent back.
    expect(world.lamports(world.feePayer.address)).toBeGreaterThan(before + BigInt(rent) - 20_000n);
  });
});
