/**
 * A malicious client controls which context accounts the final instruction reads. Each attack
 * below swaps slots of an honest transfer's final instruction; the program must refuse and nothing
 * may move (`expectRefusedByProgram`: every account of the world unchanged, the run's contexts
 * closed). Replacements are either genuine — proofs the ZK ElGamal Proof program verified into
 * accounts the attacker created, under the agent PDA's authority — or look-alikes planted with
 * the exact bytes such a verification writes, under another owner or authority.
 */

import { SubmissionRejected } from "@cpay/localnet/cluster";
import {
  type AgentTransferContexts,
  closeAgentProofContexts,
  parseValidityProofContext,
  transferAmountCiphertext,
} from "@cpay/sdk/agent-confidential";
import { zk } from "@cpay/sdk/confidential";
import { type Address, generateKeyPairSigner, getAddressEncoder, type KeyPairSigner } from "@solana/kit";
import { TOKEN_2022_PROGRAM_ADDRESS } from "@solana-program/token-2022";
import {
  ZK_ELGAMAL_PROOF_PROGRAM_ADDRESS,
  ZkElGamalProofInstruction,
} from "@solana-program/zk-elgamal-proof";
import { describe, expect, it } from "vitest";
import { fundedAgentSuite } from "../support/agent-confidential-world";
import { type OwnLimitProofs, proveLimitsOutsideSdk } from "../support/limit-proofs";
import { beforeFinalWithPlanned } from "../support/planned-contexts";
import { accountBytes, plantAccount } from "../support/plant-account";
import { usdg, type WorldAgent } from "../support/policy-world";
import { landedInstructions, verifiedPayloads, verifyContext } from "../support/proof-context";
import { expectRefusedByProgram, worldChangesBy } from "../support/refused-by-program";

type Slot = keyof AgentTransferContexts;

const LIMIT_SLOTS = ["limitEqualityTransaction", "limitEqualityDaily", "limitRangeProof"] as const;
const AMOUNT = usdg(10);
/** Context data starts after the authority (32) and the proof type (1). */
const CONTEXT_HEADER = 33;

/**
 * A slot's replacement: an existing account, or a fresh one filled just before the final
 * submission (the honest contexts are verified by then).
 */
type Substitution =
  | { readonly slot: Slot; readonly address: Address }
  | {
      readonly slot: Slot;
      readonly fill: (account: KeyPairSigner, honest: AgentTransferContexts) => void | Promise<void>;
    };

describe("a malicious client's context accounts", () => {
  const given = fundedAgentSuite({ funds: usdg(300), recipient: "bob" });

  /** An honest transfer of AMOUNT by `agent` whose final instruction reads `substitutions` instead. */
  function attempt(substitutions: readonly Substitution[], agent: WorldAgent = given.world.agent) {
    let honest: AgentTransferContexts | null = null;
    const fresh = new Map<Slot, KeyPairSigner>();
    return given.world.confidentialTransfer({
      agent,
      amount: AMOUNT,
      unsafeSubstituteContexts: async (contexts) => {
        honest = contexts;
        const replaced = { ...contexts };
        for (const substitution of substitutions) {
          if ("address" in substitution) {
            replaced[substitution.slot] = substitution.address;
          } else {
            const account = await generateKeyPairSigner();
            fresh.set(substitution.slot, account);
            replaced[substitution.slot] = account.address;
          }
        }
        return replaced;
      },
      unsafeBeforeFinalSubmission: async () => {
        const contexts = honest as AgentTransferContexts | null;
        if (contexts === null) throw new Error("no contexts were planned");
        for (const substitution of substitutions) {
          const account = fresh.get(substitution.slot);
          if ("fill" in substitution && account !== undefined) await substitution.fill(account, contexts);
        }
      },
    });
  }

  /** Plants at the fresh account a copy of the honest `slot` context's bytes, changed by `change`. */
  const copyOf =
    (from: Slot, options: { owner?: Address; change?: (bytes: Uint8Array) => void } = {}) =>
    (account: KeyPairSigner, honest: AgentTransferContexts) => {
      const bytes = accountBytes(given.world.cluster, honest[from]);
      options.change?.(bytes);
      plantAccount(given.world.cluster, {
        address: account.address,
        owner: options.owner ?? ZK_ELGAMAL_PROOF_PROGRAM_ADDRESS,
        data: bytes,
      });
    };

  /**
   * The three limit contexts, genuinely proved and verified by this suite (not the SDK) for the
   * transfer being attempted: the program's own X_tx and X_day, fresh commitments Z, and one range
   * proof over `[Z_tx, Z_day]` — or over `[Z_day, Z_tx]` when `swapped`.
   */
  function ownLimitContexts(options: { readonly swapped: boolean }): Substitution[] {
    let made: OwnLimitProofs | null = null;
    const prove = (honest: AgentTransferContexts) => {
      const validity = accountBytes(given.world.cluster, honest.ciphertextValidityProof).subarray(
        CONTEXT_HEADER,
      );
      return proveLimitsOutsideSdk({
        keypair: given.world.agentKeys().elgamal,
        amountCiphertext: transferAmountCiphertext(parseValidityProofContext(validity)),
        amount: AMOUNT,
        prover: given.world.proverState(),
        rangeOrder: options.swapped ? "daily-first" : "transaction-first",
      });
    };
    return LIMIT_SLOTS.map((slot) => ({
      slot,
      fill: async (account: KeyPairSigner, honest: AgentTransferContexts) => {
        made ??= prove(honest);
        const proof = made[slot];
        await verifyContext(given.world, { account, proof, authority: given.world.agent.address });
        own.push(account.address);
      },
    }));
  }
  /** Contexts this suite verified for the agent: closable by the agent signer once unused. */
  const own: Address[] = [];

  it("Given a genuine, verified range proof over other commitments in the limit-range slot, Then LimitProofMismatch", async () => {
    const openings = [new zk.PedersenOpening(), new zk.PedersenOpening()];
    const values = [1n, 2n];
    const proofData = new zk.BatchedRangeProofU64Data(
      openings.map((opening, i) => zk.PedersenCommitment.from(values[i] ?? 0n, opening)),
      new BigUint64Array(values),
      Uint8Array.from([32, 32]),
      openings,
    ).toBytes();
    const account = await generateKeyPairSigner();
    await verifyContext(given.world, {
      account,
      proof: { discriminator: ZkElGamalProofInstruction.VerifyBatchedRangeProofU64, proofData },
      authority: given.world.agent.address,
    });
    await expectRefusedByProgram(
      given.world,
      () => attempt([{ slot: "limitRangeProof", address: account.address }]),
      "LimitProofMismatch",
    );
    // Untouched by the refused transfer: the agent signer can still close it.
    expect(given.world.cluster.getAccount(account.address)?.owner).toBe(ZK_ELGAMAL_PROOF_PROGRAM_ADDRESS);
    own.push(account.address);
  });

  it("Given limit proofs made outside the SDK for the program's own X, Then they execute (control); with the range proof over [Z_day, Z_tx] instead, LimitProofMismatch", async () => {
    const before = given.world.agentAvailable();
    expect((await attempt(ownLimitContexts({ swapped: false }))).outcome).toBe("executed");
    expect(given.world.agentAvailable()).toBe(before - AMOUNT);
    await expectRefusedByProgram(
      given.world,
      () => attempt(ownLimitContexts({ swapped: true })),
      "LimitProofMismatch",
    );
  });

  it("Given the limit equality contexts swapped, Then LimitProofMismatch", async () => {
    await expectRefusedByProgram(
      given.world,
      () =>
        attempt([
          { slot: "limitEqualityTransaction", fill: copyOf("limitEqualityDaily") },
          { slot: "limitEqualityDaily", fill: copyOf("limitEqualityTransaction") },
        ]),
      "LimitProofMismatch",
    );
  });

  it("Given a context's exact bytes under another program (Token-2022, or the agent-policy program itself), Then WrongProofContext", async () => {
    const planted: Address[] = [];
    const owners = [TOKEN_2022_PROGRAM_ADDRESS, given.world.programId];
    for (const [slot, owner] of [
      ["limitEqualityTransaction", owners[0]],
      ["limitRangeProof", owners[1]],
      ["ciphertextValidityProof", owners[1]],
      ["equalityProof", owners[0]],
    ] as const) {
      const plant = copyOf(slot, { owner });
      await expectRefusedByProgram(
        given.world,
        () =>
          attempt([
            {
              slot,
              fill: (account, honest) => {
                planted.push(account.address);
                plant(account, honest);
              },
            },
          ]),
        "WrongProofContext",
        { planted: () => planted },
      );
    }
  });

  it("Given a context of the wrong proof type in a slot, Then WrongProofContext", async () => {
    await expectRefusedByProgram(
      given.world,
      () => attempt([{ slot: "limitEqualityTransaction", fill: copyOf("limitRangeProof") }]),
      "WrongProofContext",
    );
    // The U64 limit-range context where Token-2022 needs its U128 one.
    await expectRefusedByProgram(
      given.world,
      () => attempt([{ slot: "rangeProof", fill: copyOf("limitRangeProof") }]),
      "WrongProofContext",
    );
  });

  it("Given a context whose authority is another agent's PDA, Then WrongProofContext", async () => {
    const other = await given.world.createAgent({ owner: "carol", name: "bot" });
    const change = (bytes: Uint8Array) => bytes.set(getAddressEncoder().encode(other.address), 0);
    for (const slot of ["limitEqualityDaily", "equalityProof"] as const) {
      await expectRefusedByProgram(
        given.world,
        () => attempt([{ slot, fill: copyOf(slot, { change }) }]),
        "WrongProofContext",
      );
    }
  });

  it("Given another agent's live, verified contexts, When this agent's transfer names them, Then it is refused and the other agent's transfer still executes with them", async () => {
    const other = await given.world.createAgent({ owner: "dave", name: "bot" });
    await given.world.setupAgent(other);
    await given.world.fundAgent(usdg(50), other);
    const result = await given.world.confidentialTransfer({
      agent: other,
      amount: AMOUNT,
      ...beforeFinalWithPlanned(async (contexts) => {
        for (const slots of [LIMIT_SLOTS, Object.keys(contexts) as Slot[]]) {
          await expectRefusedByProgram(
            given.world,
            () => attempt(slots.map((slot) => ({ slot, address: contexts[slot] }))),
            "WrongProofContext",
          );
        }
      }),
    });
    expect(result.outcome).toBe("executed");
    expect(given.world.agentAvailable(other)).toBe(usdg(50) - AMOUNT);
  });

  /** An executed transfer of AMOUNT and the six contexts its final instruction read. */
  async function executedWithContexts() {
    let used: AgentTransferContexts | null = null;
    const done = await given.world.confidentialTransfer({
      amount: AMOUNT,
      unsafeSubstituteContexts: (planned) => {
        used = planned;
        return planned;
      },
    });
    expect(done.outcome).toBe("executed");
    const contexts = used as AgentTransferContexts | null;
    if (contexts === null) throw new Error("no contexts were planned");
    return { done, contexts };
  }

  it("Given a successful transfer, When its final instruction is submitted again, Then the cluster drops the identical transaction and the program refuses a new one (its contexts are gone)", async () => {
    const { done, contexts } = await executedWithContexts();
    for (const context of Object.values(contexts)) expect(given.world.cluster.getAccount(context)).toBeNull();

    const finalSignature = done.signatures.at(-1) ?? "";
    const wire = given.world.cluster.getTransaction(finalSignature)?.wire ?? new Uint8Array();
    const resent = await worldChangesBy(given.world, async () => {
      const rejected = (() => {
        try {
          given.world.cluster.sendTransaction(wire);
          return null;
        } catch (error) {
          return error instanceof SubmissionRejected ? error.kind : error;
        }
      })();
      expect(rejected).toBe("already_processed");
      const [transfer] = landedInstructions(given.world, finalSignature).filter(
        (instruction) => instruction.programAddress === given.world.programId,
      );
      if (transfer === undefined) throw new Error("no agent_confidential_transfer in the final transaction");
      const outcome = await given.world.send([transfer], { signers: [given.world.agent.signer] });
      expect(outcome.error).toBe("WrongProofContext");
    });
    expect(resent).toEqual([]);
  });

  it("Given the limit proofs a successful transfer sent, When an attacker verifies the same proof data into fresh contexts for a later transfer, Then LimitProofMismatch", async () => {
    const { done, contexts } = await executedWithContexts();
    const payloads = verifiedPayloads(
      given.world,
      done.signatures,
      LIMIT_SLOTS.map((slot) => contexts[slot]),
    );
    expect(payloads.size).toBe(3);

    const replayed: Substitution[] = LIMIT_SLOTS.map((slot) => ({
      slot,
      fill: async (account) => {
        const proof = payloads.get(contexts[slot]);
        if (proof === undefined) throw new Error(`no ${slot} payload`);
        // The ZK program accepts the old proof again: a proof is not bound to an account or a time.
        await verifyContext(given.world, { account, proof, authority: given.world.agent.address });
        own.push(account.address);
      },
    }));
    await expectRefusedByProgram(given.world, () => attempt(replayed), "LimitProofMismatch");
  });

  it("Given the contexts this suite verified for the agent and never consumed, Then the agent signer closes them all", async () => {
    // 1 (other commitments) + 3 (control, consumed) + 3 (swapped) + 3 (replayed).
    expect(own).toHaveLength(10);
    const live = own.filter((context) => given.world.cluster.getAccount(context) !== null);
    expect(live).toHaveLength(7);
    const left = await closeAgentProofContexts(given.world.chain, {
      authority: given.world.agent.signer,
      agent: given.world.agent.address,
      payer: given.world.feePayer,
      addresses: live,
    });
    expect(left).toEqual([]);
  });
});
