/**
 * Property: no mutation of an honest `agent_confidential_transfer` moves funds, and every refusal
 * is named. The honest transfer is prepared through the SDK up to its final instruction (all six
 * contexts verified); the suite then rebuilds that final instruction and sends seeded mutations of
 * it — another context in each context slot (other slots' contexts, genuine contexts of another
 * proof type, validity contexts whose keys and handles come in another order or with an auditor
 * the mint does not have, contexts proving statements under another source key, another agent's
 * live contexts, and whole alternative statements: a validity context with its keys in another
 * order, an auditor the mint does not have, or another source key, together with genuine limit
 * proofs made to match it, so that it gets past our checks into Token-2022's), look-alikes of a
 * context (truncated, extended, of another type byte, under
 * another authority, owned by another program), read-only contexts, and wrong or missing
 * accounts in the Token-2022 positions (source, mint, destination, Token-2022 and ZK program ids)
 * including the programs themselves and the instructions sysvar. After each one: every account of
 * the world, each context and the agent's next hold address are byte for byte unchanged, and the
 * refusal names the program that refused and its error (ours by IDL name, Token-2022's by its
 * logged error, the ZK program's by its instruction error) — never a panic, an access violation,
 * an exhausted budget or an error our program did not name. After each round, the honest
 * instruction itself executes with the very contexts the mutations named (the control), for the
 * agent and for the other agent whose live contexts were borrowed.
 *
 * Bounded: 4 rounds of `MUTATION_RUNS` (default 100) cases each, seeds `MUTATION_SEED` + round
 * (printed), ~20 s; the refusal distribution is printed at the end. `MUTATION_DEBUG=1` prints
 * each case and its refusal (`=logs`: with the transaction's logs).
 */

import { BPF_LOADER_UPGRADEABLE_ADDRESS } from "@cpay/localnet/cluster";
import {
  type AgentTransferContexts,
  buildAgentConfidentialTransferInstruction,
  parseValidityProofContext,
  transferAmountCiphertext,
} from "@cpay/sdk/agent-confidential";
import { zk } from "@cpay/sdk/confidential";
import {
  type AccountMeta,
  AccountRole,
  type Address,
  address,
  generateKeyPairSigner,
  getAddressEncoder,
  type Instruction,
} from "@solana/kit";
import { TOKEN_2022_PROGRAM_ADDRESS } from "@solana-program/token-2022";
import {
  getVerifyProofInstruction,
  ZK_ELGAMAL_PROOF_PROGRAM_ADDRESS,
  ZkElGamalProofInstruction,
} from "@solana-program/zk-elgamal-proof";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type AgentConfidentialWorld,
  createFundedAgentWorld,
  testConfidentialKeys,
} from "../support/agent-confidential-world";
import type { Outcome } from "../support/cluster-send";
import { proveLimitsOutsideSdk } from "../support/limit-proofs";
import { beforeFinalWithPlanned } from "../support/planned-contexts";
import { accountBytes, plantAccount } from "../support/plant-account";
import { transferId, usdg, type WorldAgent } from "../support/policy-world";
import { type ProofPayload, verifyContext } from "../support/proof-context";
import { perSuite } from "../support/shared-set-up";
import { testKey } from "../support/test-keys";

/** Mutations per round (one honest transfer each). */
const RUNS_PER_ROUND = Number(process.env.MUTATION_RUNS ?? 100);
const ROUNDS = 4;
const SEED = Number(process.env.MUTATION_SEED ?? 20_261_125);
/** A BPF Upgradeable Loader buffer's header: the proof data the SDK stages starts after it. */
const LOADER_BUFFER_HEADER = 37;

/** Thrown to end an SDK run once the suite sent the control itself. */
class ControlSent extends Error {}

function causedBy(error: unknown, type: new (...args: never[]) => Error): boolean {
  for (let current = error, depth = 0; current !== undefined && depth < 8; depth += 1) {
    if (current instanceof type) return true;
    current = current instanceof Error ? current.cause : undefined;
  }
  return false;
}
const AMOUNT = usdg(10);

const SYSTEM_PROGRAM = address("11111111111111111111111111111111");
const INSTRUCTIONS_SYSVAR = address("Sysvar1nstructions1111111111111111111111111");

/** Account positions of `agent_confidential_transfer` (see the program's instruction doc). */
const SOURCE = 3;
const MINT = 4;
const DESTINATION = 5;
const CONTEXT_SLOTS = [7, 8, 9, 10, 11, 12] as const;
const TOKEN_PROGRAM = 16;
const ZK_PROGRAM = 17;
const TOKEN_POSITIONS = [SOURCE, MINT, DESTINATION, TOKEN_PROGRAM, ZK_PROGRAM] as const;
const SLOT_NAMES: readonly (keyof AgentTransferContexts)[] = [
  "equalityProof",
  "ciphertextValidityProof",
  "rangeProof",
  "limitEqualityTransaction",
  "limitEqualityDaily",
  "limitRangeProof",
];
/** Context data starts after the authority (32) and the proof type (1). */
const PROOF_TYPE_OFFSET = 32;

/** Look-alikes of a context: what an attacker cannot make, but the program must still refuse. */
const LOOKALIKES = [
  "truncated by 1",
  "truncated to the header",
  "truncated to nothing",
  "extended by 1",
  "extended by 32",
  "proof type + 1",
  "proof type 0",
  "authority: the agent signer",
  "authority: the owner",
  "authority: another agent",
  "authority: zero",
  "owner: Token-2022",
  "owner: agent-policy",
  "owner: system",
] as const;
type Lookalike = (typeof LOOKALIKES)[number];

type Mutation =
  | { readonly kind: "context"; readonly slot: number; readonly pick: number }
  | { readonly kind: "lookalike"; readonly slot: number; readonly from: number; readonly variant: number }
  | { readonly kind: "readonly"; readonly slot: number }
  | { readonly kind: "coherent"; readonly pick: number }
  | { readonly kind: "token"; readonly position: number; readonly pick: number }
  | { readonly kind: "token readonly"; readonly position: number }
  | { readonly kind: "drop"; readonly position: number }
  | { readonly kind: "cut"; readonly keep: number };

/** Errors that are nobody's named refusal. */
const UNNAMED = /panicked|Access violation|failed to complete|exceeded CUs|ComputationalBudgetExceeded/i;

describe("mutations of an honest agent confidential transfer", () => {
  let nextTransferId = 77_000;
  const given = perSuite(async () => {
    const world = await createFundedAgentWorld({ funds: usdg(300) });
    const bob = await world.confidentialRecipient("bob");
    await world.confidentialRecipient("acme");
    const dave = await world.createAgent({ owner: "dave", name: "bot" });
    await world.setupAgent(dave);
    await world.fundAgent(usdg(50), dave);
    return { world, bob, dave };
  });
  const loaderBuffers = () =>
    given.world.cluster.getProgramAccounts(BPF_LOADER_UPGRADEABLE_ADDRESS).map((account) => account.address);

  /**
   * An honest transfer of AMOUNT by `agent`, prepared through the SDK up to its final transaction;
   * then `hook` runs with the six live contexts and the honest final instruction, rebuilt here (the
   * SDK's own final transaction is signed before the hook and never sent: its blockhash would not
   * outlive the mutations). The U128 range proof is verified inside that final transaction, from a
   * loader buffer the SDK filled; it is verified here from the same buffer first. After the hook,
   * the honest instruction itself is sent (the control: it must execute), and the SDK's run is
   * ended, which closes its buffer. Returns the control's outcome.
   */
  async function withLiveContexts(
    agent: WorldAgent,
    hook: (contexts: AgentTransferContexts, honest: Instruction) => Promise<void>,
  ): Promise<Outcome> {
    const keys = given.world.agentKeys(agent);
    const available = given.world.agentAvailable(agent);
    const spentToday = given.world.proverState(agent).confidentialSpentToday;
    const buffersBefore = new Set(loaderBuffers());
    let control: Outcome | null = null;
    const ended = await given.world
      .confidentialTransfer({
        agent,
        amount: AMOUNT,
        ...beforeFinalWithPlanned(async (contexts) => {
          const buffers = loaderBuffers().filter((buffer) => !buffersBefore.has(buffer));
          const staged = SLOT_NAMES.filter((slot) =>
            accountBytes(given.world.cluster, contexts[slot])
              .subarray(0, PROOF_TYPE_OFFSET + 1)
              .every((byte) => byte === 0),
          );
          expect([buffers.length, staged]).toEqual([1, ["rangeProof"]]);
          const verified = await given.world.send([
            getVerifyProofInstruction({
              discriminator: ZkElGamalProofInstruction.VerifyBatchedRangeProofU128,
              proofAccount: buffers[0] as Address,
              offset: LOADER_BUFFER_HEADER,
              contextState: contexts.rangeProof,
              contextStateAuthority: agent.address,
            }),
          ]);
          expect(verified.err).toBeNull();
          const { instruction } = await buildAgentConfidentialTransferInstruction({
            agentSigner: agent.signer,
            agent: agent.address,
            nextHoldNonce: given.world.readAgent(agent).nextHoldNonce,
            source: agent.usdg,
            mint: given.world.usdgMint,
            destination: given.bob.usdg,
            recipientHandle: given.bob.handle,
            contexts,
            contextRentReceiver: given.world.feePayer.address,
            payer: given.world.feePayer,
            transferId: transferId(++nextTransferId),
            newSourceDecryptableAvailableBalance: keys.ae.encrypt(available - AMOUNT).toBytes(),
            spendDecryptable: keys.ae.encrypt(spentToday + AMOUNT).toBytes(),
            spendDecryptableNextDay: keys.ae.encrypt(AMOUNT).toBytes(),
            requestHold: false,
            programAddress: given.world.programId,
          });
          await hook(contexts, instruction as Instruction);
          control = await given.world.send([instruction as Instruction]);
          throw new ControlSent();
        }),
      })
      .then(
        () => new Error("the SDK's own final transaction was sent"),
        (thrown: unknown) => thrown,
      );
    if (!causedBy(ended, ControlSent)) throw ended;
    const outcome = control as Outcome | null;
    if (outcome === null) throw new Error("no control was sent");
    return outcome;
  }

  /**
   * Limit contexts, genuinely proved and verified for the agent PDA, that match the validity context
   * at `validity` (an alternative statement of the transfer) for today's prover state, proved with
   * `keypair` (the key the validity context names as the source's): what an attacker who holds that
   * key can make for the limit slots, so that a mutated validity context gets past the limit checks
   * and reaches Token-2022.
   */
  async function coherentLimitContexts(
    validity: Address,
    keypair: zk.ElGamalKeypair,
    foreign: boolean,
  ): Promise<Address[]> {
    const statement = parseValidityProofContext(
      accountBytes(given.world.cluster, validity).subarray(PROOF_TYPE_OFFSET + 1),
    );
    const amountCiphertext = transferAmountCiphertext(statement);
    const today = given.world.proverState();
    // Today's spend S is under the agent's key: a foreign key proves as if nothing were spent yet
    // (the program then finds S under another key than the validity context's source key).
    const prover = foreign
      ? { ...today, spendCiphertext: new Uint8Array(64), confidentialSpentToday: 0n }
      : today;
    const proofs = proveLimitsOutsideSdk({ keypair, amountCiphertext, amount: AMOUNT, prover });
    const made: Address[] = [];
    for (const proof of [
      proofs.limitEqualityTransaction,
      proofs.limitEqualityDaily,
      proofs.limitRangeProof,
    ]) {
      const account = await generateKeyPairSigner();
      await verifyContext(given.world, { account, proof, authority: given.world.agent.address });
      made.push(account.address);
    }
    return made;
  }

  /** Genuine contexts the ZK program verifies for the agent PDA: statements an attacker can get. */
  async function genuineContexts(): Promise<Map<string, Address>> {
    const made = new Map<string, Address>();
    const verify = async (name: string, proof: ProofPayload) => {
      const account = await generateKeyPairSigner();
      await verifyContext(given.world, { account, proof, authority: given.world.agent.address });
      made.set(name, account.address);
    };
    const intruder = testConfidentialKeys("mutation intruder");
    const keys = {
      src: given.world.agentKeys().elgamal.pubkey(),
      dst: zk.ElGamalPubkey.fromBytes(given.bob.keys.elgamalPubkey),
      aud: zk.ElGamalPubkey.fromBytes(new Uint8Array(32)),
      intruder: intruder.elgamal.pubkey(),
    };
    const lo = AMOUNT & 0xffffn;
    const hi = AMOUNT >> 16n;
    const validity = (order: readonly (keyof typeof keys)[]): ProofPayload => {
      const [a, b, c] = order.map((key) => keys[key]) as [
        zk.ElGamalPubkey,
        zk.ElGamalPubkey,
        zk.ElGamalPubkey,
      ];
      const openingLo = new zk.PedersenOpening();
      const openingHi = new zk.PedersenOpening();
      const groupedLo = zk.GroupedElGamalCiphertext3Handles.encryptWith(a, b, c, lo, openingLo);
      const groupedHi = zk.GroupedElGamalCiphertext3Handles.encryptWith(a, b, c, hi, openingHi);
      return {
        discriminator: ZkElGamalProofInstruction.VerifyBatchedGroupedCiphertext3HandlesValidity,
        proofData: new zk.BatchedGroupedCiphertext3HandlesValidityProofData(
          a,
          b,
          c,
          groupedLo,
          groupedHi,
          lo,
          hi,
          openingLo,
          openingHi,
        ).toBytes(),
      };
    };
    // The ZK program refuses a validity proof whose first or second key is the identity (the
    // absent auditor's zero key), so the auditor can move only into third place.
    for (const order of [
      ["dst", "src", "aud"],
      ["src", "src", "aud"],
      ["dst", "dst", "aud"],
      ["src", "dst", "intruder"],
      ["src", "dst", "src"],
      ["src", "dst", "dst"],
      ["dst", "src", "intruder"],
      ["intruder", "dst", "aud"],
      ["src", "dst", "aud"],
    ] as const) {
      await verify(`validity ${order.join("/")}`, validity(order));
    }
    const opening = new zk.PedersenOpening();
    await verify("equality under another key", {
      discriminator: ZkElGamalProofInstruction.VerifyCiphertextCommitmentEquality,
      proofData: new zk.CiphertextCommitmentEqualityProofData(
        intruder.elgamal,
        keys.intruder.encryptWith(AMOUNT, opening),
        zk.PedersenCommitment.from(AMOUNT, opening),
        opening,
        AMOUNT,
      ).toBytes(),
    });
    await verify("pubkey validity", {
      discriminator: ZkElGamalProofInstruction.VerifyPubkeyValidity,
      proofData: new zk.PubkeyValidityProofData(given.world.agentKeys().elgamal).toBytes(),
    });
    return made;
  }

  it("no mutation moves funds, creates a hold or changes the daily total, and every refusal is named", async () => {
    const availableBefore = given.world.agentAvailable();
    const daveBefore = given.world.agentAvailable(given.dave);
    const refusals = new Map<string, number>();
    const genuine = await genuineContexts();
    const otherMint = await given.world.createMint("mutation other");
    const otherMintAccount = await otherMint.fund(given.world.agent.address, usdg(1));
    const controls: Outcome[] = [];
    // A round per pair of honest transfers (fresh contexts, another seed)
    for (let round = 0; round < ROUNDS; round += 1) {
      const mainControl = await withLiveContexts(given.world.agent, async (honest, honestInstruction) => {
        const daveControl = await withLiveContexts(given.dave, async (theirs) => {
          const honestList = SLOT_NAMES.map((slot) => honest[slot]);
          // Alternative validity statements with limit proofs to match: [name, validity, tx, daily, range]
          const intruderKeys = testConfidentialKeys("mutation intruder").elgamal;
          const coherent: { readonly name: string; readonly accounts: readonly Address[] }[] = [];
          for (const [name, keypair, foreign] of [
            ["a fresh encryption of the amount", given.world.agentKeys().elgamal, false],
            ["src/dst/intruder", given.world.agentKeys().elgamal, false],
            ["src/dst/src", given.world.agentKeys().elgamal, false],
            ["dst/src/aud", given.bob.keys.elgamal, true],
            ["intruder/dst/aud", intruderKeys, true],
          ] as const) {
            const validity = genuine.get(
              name === "a fresh encryption of the amount" ? "validity src/dst/aud" : `validity ${name}`,
            );
            if (validity === undefined) throw new Error(`no genuine validity ${name}`);
            coherent.push({
              name,
              accounts: [validity, ...(await coherentLimitContexts(validity, keypair, foreign))],
            });
          }
          // Context candidates: this transfer's own (in another slot), genuine extras, dave's live ones
          const contextPool: { readonly name: string; readonly address: Address }[] = [
            ...SLOT_NAMES.map((slot) => ({ name: `own ${slot}`, address: honest[slot] })),
            ...[...genuine].map(([name, at]) => ({ name, address: at })),
            ...SLOT_NAMES.map((slot) => ({ name: `dave's ${slot}`, address: theirs[slot] })),
            // Not contexts at all
            { name: "the ZK program", address: ZK_ELGAMAL_PROOF_PROGRAM_ADDRESS },
            { name: "Token-2022", address: TOKEN_2022_PROGRAM_ADDRESS },
            { name: "the instructions sysvar", address: INSTRUCTIONS_SYSVAR },
            { name: "the agent's source", address: given.world.agent.usdg },
          ];
          const planted = new Map<string, Address>();
          const lookalike = (from: number, variant: Lookalike): Address => {
            const key = `${from} ${variant}`;
            const existing = planted.get(key);
            if (existing !== undefined) return existing;
            const original = honestList[from] as Address;
            let bytes = accountBytes(given.world.cluster, original);
            let owner: Address = ZK_ELGAMAL_PROOF_PROGRAM_ADDRESS;
            const authority = (who: Address | null) => {
              bytes.set(who === null ? new Uint8Array(32) : getAddressEncoder().encode(who), 0);
            };
            switch (variant) {
              case "truncated by 1":
                bytes = bytes.slice(0, -1);
                break;
              case "truncated to the header":
                bytes = bytes.slice(0, PROOF_TYPE_OFFSET + 1);
                break;
              case "truncated to nothing":
                bytes = new Uint8Array(0);
                break;
              case "extended by 1":
                bytes = Uint8Array.from([...bytes, 0]);
                break;
              case "extended by 32":
                bytes = Uint8Array.from([...bytes, ...new Uint8Array(32)]);
                break;
              case "proof type + 1":
                bytes[PROOF_TYPE_OFFSET] = ((bytes[PROOF_TYPE_OFFSET] ?? 0) + 1) & 0xff;
                break;
              case "proof type 0":
                bytes[PROOF_TYPE_OFFSET] = 0;
                break;
              case "authority: the agent signer":
                authority(given.world.agent.signer.address);
                break;
              case "authority: the owner":
                authority(given.world.alice.wallet.address);
                break;
              case "authority: another agent":
                authority(given.dave.address);
                break;
              case "authority: zero":
                authority(null);
                break;
              case "owner: Token-2022":
                owner = TOKEN_2022_PROGRAM_ADDRESS;
                break;
              case "owner: agent-policy":
                owner = given.world.programId;
                break;
              case "owner: system":
                owner = SYSTEM_PROGRAM;
                break;
            }
            const at = testKey(`mutation lookalike ${round} ${key}`).address;
            plantAccount(given.world.cluster, { address: at, owner, data: bytes });
            planted.set(key, at);
            return at;
          };

          const tokenPool: readonly Address[] = [
            ZK_ELGAMAL_PROOF_PROGRAM_ADDRESS,
            TOKEN_2022_PROGRAM_ADDRESS,
            INSTRUCTIONS_SYSVAR,
            SYSTEM_PROGRAM,
            given.world.programId,
            given.world.usdgMint,
            otherMint.mint,
            otherMintAccount,
            given.world.agent.usdg,
            given.world.agent.address,
            given.world.agent.policy,
            given.dave.usdg,
            given.dave.address,
            given.bob.usdg,
            given.bob.wallet.address,
            given.world.recipients.acme.usdg,
            given.world.alice.usdg,
            honest.ciphertextValidityProof,
            testKey("mutation random").address,
          ];

          const honestAccounts = honestInstruction.accounts ?? [];

          const mutate = (mutations: readonly Mutation[]): { instruction: Instruction; label: string[] } => {
            let accounts: AccountMeta[] = [...honestAccounts];
            const label: string[] = [];
            const replace = (at: number, with_: Address, role?: AccountRole) => {
              const old = accounts[at] as AccountMeta;
              accounts[at] = { address: with_, role: role ?? old.role };
            };
            for (const mutation of mutations) {
              switch (mutation.kind) {
                case "context": {
                  const slot = mutation.slot % 6;
                  const pick = contextPool[
                    mutation.pick % contextPool.length
                  ] as (typeof contextPool)[number];
                  replace(CONTEXT_SLOTS[slot] as number, pick.address);
                  label.push(`${SLOT_NAMES[slot]} <- ${pick.name}`);
                  break;
                }
                case "lookalike": {
                  const slot = mutation.slot % 6;
                  const from = mutation.from % 6;
                  const variant = LOOKALIKES[mutation.variant % LOOKALIKES.length] as Lookalike;
                  replace(CONTEXT_SLOTS[slot] as number, lookalike(from, variant));
                  label.push(`${SLOT_NAMES[slot]} <- ${SLOT_NAMES[from]} ${variant}`);
                  break;
                }
                case "coherent": {
                  const set = coherent[mutation.pick % coherent.length] as (typeof coherent)[number];
                  for (const [i, slot] of [1, 3, 4, 5].entries()) {
                    replace(CONTEXT_SLOTS[slot] as number, set.accounts[i] as Address);
                  }
                  label.push(`validity and limit contexts <- ${set.name} (coherent)`);
                  break;
                }
                case "readonly": {
                  const at = CONTEXT_SLOTS[mutation.slot % 6] as number;
                  replace(at, (accounts[at] as AccountMeta).address, AccountRole.READONLY);
                  label.push(`${SLOT_NAMES[mutation.slot % 6]} read-only`);
                  break;
                }
                case "token": {
                  const at = TOKEN_POSITIONS[mutation.position % TOKEN_POSITIONS.length] as number;
                  const pick = tokenPool[mutation.pick % tokenPool.length] as Address;
                  const old = accounts[at] as AccountMeta;
                  // The invoked program cannot be writable in a transaction
                  const role =
                    pick === given.world.programId && old.role === AccountRole.WRITABLE
                      ? AccountRole.READONLY
                      : old.role;
                  replace(at, pick, role);
                  label.push(`account ${at} <- ${pick}`);
                  break;
                }
                case "token readonly": {
                  const at = mutation.position % 2 === 0 ? SOURCE : DESTINATION;
                  replace(at, (accounts[at] as AccountMeta).address, AccountRole.READONLY);
                  label.push(`account ${at} read-only`);
                  break;
                }
                case "drop": {
                  const at = SOURCE + (mutation.position % (ZK_PROGRAM - SOURCE + 1));
                  accounts = accounts.filter((_, i) => i !== at);
                  label.push(`account ${at} dropped`);
                  break;
                }
                case "cut": {
                  const keep = mutation.keep % accounts.length;
                  accounts = accounts.slice(0, keep);
                  label.push(`only ${keep} accounts`);
                  break;
                }
              }
            }
            return { instruction: { ...honestInstruction, accounts }, label };
          };

          const sameAsHonest = (instruction: Instruction) => {
            const accounts = instruction.accounts ?? [];
            return (
              accounts.length === honestAccounts.length &&
              accounts.every(
                (meta, i) =>
                  meta.address === honestAccounts[i]?.address && meta.role === honestAccounts[i]?.role,
              )
            );
          };

          const nextHold = await given.world.pendingAddress(given.world.readAgent().nextHoldNonce);
          const watched = () => [
            ...contextPool.map((entry) => entry.address),
            ...coherent.flatMap((set) => set.accounts),
            ...planted.values(),
            ...tokenPool,
            nextHold,
          ];

          const mutation: fc.Arbitrary<Mutation> = fc.oneof(
            {
              weight: 4,
              arbitrary: fc.record({ kind: fc.constant("context" as const), slot: fc.nat(), pick: fc.nat() }),
            },
            {
              weight: 4,
              arbitrary: fc.record({
                kind: fc.constant("lookalike" as const),
                slot: fc.nat(),
                from: fc.nat(),
                variant: fc.nat(),
              }),
            },
            { weight: 1, arbitrary: fc.record({ kind: fc.constant("readonly" as const), slot: fc.nat() }) },
            { weight: 3, arbitrary: fc.record({ kind: fc.constant("coherent" as const), pick: fc.nat() }) },
            {
              weight: 4,
              arbitrary: fc.record({
                kind: fc.constant("token" as const),
                position: fc.nat(),
                pick: fc.nat(),
              }),
            },
            {
              weight: 1,
              arbitrary: fc.record({ kind: fc.constant("token readonly" as const), position: fc.nat() }),
            },
            { weight: 1, arbitrary: fc.record({ kind: fc.constant("drop" as const), position: fc.nat() }) },
            { weight: 1, arbitrary: fc.record({ kind: fc.constant("cut" as const), keep: fc.nat() }) },
          );

          console.info(`transfer mutations: round ${round}, seed ${SEED + round}, ${RUNS_PER_ROUND} runs`);
          await fc.assert(
            fc.asyncProperty(fc.array(mutation, { minLength: 1, maxLength: 3 }), async (mutations) => {
              // Removals last, so every replacement lands on the position it names
              const structural = (m: Mutation) => m.kind === "drop" || m.kind === "cut";
              const ordered = [...mutations.filter((m) => !structural(m)), ...mutations.filter(structural)];
              const { instruction, label } = mutate(ordered);
              fc.pre(!sameAsHonest(instruction));
              const before = given.world.snapshot(watched());
              const outcome = await given.world.send([instruction]);
              const changes = given.world.changesSince(before, outcome);
              const name = refusalName(given.world, outcome);
              const context = `${label.join("; ")}\n${name}\n${outcome.logs.join("\n")}`;
              // A mutation is refused, named, and changes nothing
              expect(outcome.err, context).not.toBeNull();
              expect(name, context).not.toMatch(/^UNNAMED/);
              expect(changes, context).toEqual([]);
              refusals.set(name, (refusals.get(name) ?? 0) + 1);
              if (process.env.MUTATION_DEBUG)
                console.info(
                  `MUT ${label.join("; ")} => ${name}${process.env.MUTATION_DEBUG === "logs" ? `\n${outcome.logs.join("\n")}` : ""}`,
                );
            }),
            { numRuns: RUNS_PER_ROUND, seed: SEED + round },
          );
        });
        controls.push(daveControl);
      });
      controls.push(mainControl);
    }

    const distribution = [...refusals].sort((a, b) => b[1] - a[1]);
    console.info(
      `transfer mutations: refusals\n${distribution.map(([name, count]) => `  ${count}\t${name}`).join("\n")}`,
    );
    // Controls: each honest instruction the mutations started from executed afterwards, with the
    // very contexts they named, and moved exactly AMOUNT (its AE balance reads right, too).
    for (const control of controls) expect(control.err, control.logs.join("\n")).toBeNull();
    expect(given.world.agentAvailable()).toBe(availableBefore - BigInt(ROUNDS) * AMOUNT);
    expect(given.world.agentAvailable(given.dave)).toBe(daveBefore - BigInt(ROUNDS) * AMOUNT);
    // The pass reaches past every check of ours into Token-2022's own (seeded: deterministic)
    expect(distribution.some(([name]) => name.startsWith("Token-2022: "))).toBe(true);
  }, 120_000);
});

/**
 * Who refused and with what: the innermost failing program (the first `failed:` log line) and its
 * error — ours by IDL name, Token-2022's by its logged `Error:` line, any other by its instruction
 * error; a cluster rejection by its kind; `UNNAMED ...` for a panic, an access violation, an
 * exhausted budget, or an error of ours that is not one of our codes.
 */
function refusalName(world: AgentConfidentialWorld, outcome: Outcome): string {
  if (outcome.rejected !== null) return `cluster: ${outcome.rejected}`;
  const logs = outcome.logs;
  const unnamed = logs.find((line) => UNNAMED.test(line));
  if (unnamed !== undefined) return `UNNAMED ${unnamed}`;
  const failedAt = logs.findIndex((line) => / failed: /.test(line));
  const failed = logs[failedAt];
  const match = failed?.match(/^Program (\S+) failed: (.*)$/);
  if (match === null || match === undefined) return `UNNAMED ${JSON.stringify(outcome.err)}`;
  const [, program, message = ""] = match;
  if (program === world.programId) {
    return outcome.error === null ? `UNNAMED agent-policy: ${message}` : `agent-policy: ${outcome.error}`;
  }
  if (program === TOKEN_2022_PROGRAM_ADDRESS) {
    // Token-2022 logs why before it fails: its last log line, after the instruction's name
    const before = logs.slice(0, failedAt);
    const invoked =
      before.length -
      1 -
      [...before].reverse().findIndex((line) => line.startsWith(`Program ${program} invoke`));
    const logged = before
      .slice(invoked + 1)
      .reverse()
      .find((line) => line.startsWith("Program log: ") && !line.includes("Instruction::"));
    const why = logged?.slice("Program log: ".length).replace(/^Error: /, "");
    const code = message.match(/custom program error: (0x[0-9a-f]+)/)?.[1];
    return `Token-2022: ${why ?? message}${code === undefined ? "" : ` (${code})`}`;
  }
  if (program === ZK_ELGAMAL_PROOF_PROGRAM_ADDRESS) return `ZK ElGamal: ${message}`;
  return `${program}: ${message}`;
}
