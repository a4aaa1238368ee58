/**
 * A malicious client controls which context accounts the final instruction reads. Each attack
 * below swaps one slot after honest proofs were verified; the program must refuse and nothing may
 * move. Look-alikes are planted, once the honest contexts exist, with the exact bytes the ZK
 * ElGamal Proof program wrote (what re-verifying the same proof data produces), under another
 * owner or authority, at fresh addresses.
 */
import type { AgentTransferContexts } from "@cpay/sdk/agent-confidential";
import { zk } from "@cpay/sdk/confidential";
import { type Address, generateKeyPairSigner, getAddressEncoder, type KeyPairSigner } from "@solana/kit";
import { getCreateAccountInstruction } from "@solana-program/system";
import {
  BATCHED_RANGE_PROOF_CONTEXT_ACCOUNT_SIZE,
  getVerifyProofInstruction,
  ZK_ELGAMAL_PROOF_PROGRAM_ADDRESS,
  ZkElGamalProofInstruction,
} from "@solana-program/zk-elgamal-proof";
import { beforeAll, describe, expect, it } from "vitest";
import {
  type AgentConfidentialWorld,
  createAgentConfidentialWorld,
} from "../support/agent-confidential-world";
import { accountBytes, plantAccount } from "../support/plant-account";
import { usdg } from "../support/policy-world";
import { expectRefusedByProgram } from "../support/refused-by-program";

type Slot = keyof AgentTransferContexts;

/** A slot's replacement: a fresh address now, its bytes planted once the honest contexts exist. */
interface Substitution {
  readonly slot: Slot;
  /** The bytes to plant, from the honest contexts (verified by then). */
  readonly bytes: (contexts: AgentTransferContexts) => Uint8Array;
  readonly owner?: Address;
}

describe("a malicious client's context accounts", () => {
  let world: AgentConfidentialWorld;

  beforeAll(async () => {
    world = await createAgentConfidentialWorld();
    await world.setupAgent();
    await world.fundAgent(usdg(300));
    await world.confidentialRecipient("bob");
  });

  /** Transfers 10 USDG with `substitutions` applied to the final instruction's contexts. */
  function attempt(...substitutions: Substitution[]) {
    let honest: AgentTransferContexts | null = null;
    const planted = new Map<Slot, KeyPairSigner>();
    return world.confidentialTransfer({
      amount: usdg(10),
      unsafeSubstituteContexts: async (contexts) => {
        honest = contexts;
        const replaced = { ...contexts };
        for (const { slot } of substitutions) {
          const fresh = await generateKeyPairSigner();
          planted.set(slot, fresh);
          replaced[slot] = fresh.address;
        }
        return replaced;
      },
      unsafeBeforeFinalSubmission: () => {
        if (honest === null) throw new Error("no contexts were planned");
        for (const substitution of substitutions) {
          const address = planted.get(substitution.slot)?.address;
          if (address === undefined) throw new Error("not substituted");
          const data = substitution.bytes(honest);
          plantAccount(world.cluster, {
            address,
            owner: substitution.owner ?? ZK_ELGAMAL_PROOF_PROGRAM_ADDRESS,
            data,
          });
        }
      },
    });
  }

  const copyOf =
    (slot: Slot, change: (bytes: Uint8Array) => void = () => undefined) =>
    (contexts: AgentTransferContexts) => {
      const bytes = accountBytes(world.cluster, contexts[slot]);
      change(bytes);
      return bytes;
    };

  it("Given a genuine, verified range proof over other commitments in the limit-range slot, Then LimitProofMismatch", async () => {
    const openings = [new zk.PedersenOpening(), new zk.PedersenOpening()];
    const values = [1n, 2n];
    const proof = new zk.BatchedRangeProofU64Data(
      openings.map((opening, i) => zk.PedersenCommitment.from(values[i] ?? 0n, opening)),
      new BigUint64Array(values),
      Uint8Array.from([32, 32]),
      openings,
    ).toBytes();
    const account = await generateKeyPairSigner();
    const created = await world.send(
      [
        getCreateAccountInstruction({
          payer: world.feePayer,
          newAccount: account,
          lamports: world.cluster.minimumBalanceForRentExemption(BATCHED_RANGE_PROOF_CONTEXT_ACCOUNT_SIZE),
          space: BATCHED_RANGE_PROOF_CONTEXT_ACCOUNT_SIZE,
          programAddress: ZK_ELGAMAL_PROOF_PROGRAM_ADDRESS,
        }),
      ],
      { signers: [account] },
    );
    const verified = await world.send([
      getVerifyProofInstruction({
        discriminator: ZkElGamalProofInstruction.VerifyBatchedRangeProofU64,
        contextState: account.address,
        contextStateAuthority: world.agent.address,
        proofData: proof,
      }),
    ]);
    expect([created.err, verified.err]).toEqual([null, null]);
    await expectRefusedByProgram(
      world,
      () => attempt({ slot: "limitRangeProof", bytes: () => accountBytes(world.cluster, account.address) }),
      "LimitProofMismatch",
    );
  });

  it("Given the limit equality contexts swapped, Then LimitProofMismatch", async () => {
    await expectRefusedByProgram(
      world,
      () =>
        attempt(
          { slot: "limitEqualityTransaction", bytes: copyOf("limitEqualityDaily") },
          { slot: "limitEqualityDaily", bytes: copyOf("limitEqualityTransaction") },
        ),
      "LimitProofMismatch",
    );
  });

  it("Given a limit context's exact bytes under another program, Then WrongProofContext", async () => {
    for (const slot of ["limitEqualityTransaction", "limitRangeProof", "ciphertextValidityProof"] as const) {
      await expectRefusedByProgram(
        world,
        () => attempt({ slot, bytes: copyOf(slot), owner: world.cluster.programId as Address }),
        "WrongProofContext",
      );
    }
  });

  it("Given a context of the wrong proof type in a slot, Then WrongProofContext", async () => {
    await expectRefusedByProgram(
      world,
      () => attempt({ slot: "limitEqualityTransaction", bytes: copyOf("limitRangeProof") }),
      "WrongProofContext",
    );
    // The U64 limit-range context where Token-2022 needs its U128 one.
    await expectRefusedByProgram(
      world,
      () => attempt({ slot: "rangeProof", bytes: copyOf("limitRangeProof") }),
      "WrongProofContext",
    );
  });

  it("Given a context whose authority is another agent's PDA, Then WrongProofContext", async () => {
    const other = await world.createAgent({ owner: "carol", name: "bot" });
    const otherAuthority = (bytes: Uint8Array) => bytes.set(getAddressEncoder().encode(other.address), 0);
    for (const slot of ["limitEqualityDaily", "equalityProof"] as const) {
      await expectRefusedByProgram(
        world,
        () => attempt({ slot, bytes: copyOf(slot, otherAuthority) }),
        "WrongProofContext",
      );
    }
  });

  it("Given a successful transfer, Then its contexts are gone, and the same limit proofs verified again are refused for a later transfer", async () => {
    let used: AgentTransferContexts | null = null;
    const captured = new Map<Slot, Uint8Array>();
    const limitSlots = ["limitEqualityTransaction", "limitEqualityDaily", "limitRangeProof"] as const;
    const done = await world.confidentialTransfer({
      amount: usdg(10),
      unsafeSubstituteContexts: (contexts) => {
        used = contexts;
        return contexts;
      },
      unsafeBeforeFinalSubmission: () => {
        const contexts = used as AgentTransferContexts | null;
        if (contexts === null) throw new Error("no contexts were planned");
        for (const slot of limitSlots) captured.set(slot, accountBytes(world.cluster, contexts[slot]));
      },
    });
    expect(done.outcome).toBe("executed");
    const closed = used as AgentTransferContexts | null;
    if (closed === null) throw new Error("no contexts were planned");
    for (const context of Object.values(closed)) expect(world.cluster.getAccount(context)).toBeNull();

    const replay = (slot: Slot) => () => {
      const bytes = captured.get(slot);
      if (bytes === undefined) throw new Error(`${slot} was not captured`);
      return bytes;
    };
    await expectRefusedByProgram(
      world,
      () => attempt(...limitSlots.map((slot) => ({ slot, bytes: replay(slot) }))),
      "LimitProofMismatch",
    );
  });
});
