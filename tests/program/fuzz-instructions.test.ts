/**
 * Property: whatever instruction reaches the program — random bytes, a real discriminator with a
 * random tail, or a real instruction with accounts swapped, flags flipped and data cut, extended or
 * flipped — it never moves a lamport or a token, nor rewrites any account, unless it is a call
 * the right key signed (the legitimacy oracle below), and it never leaves one of its accounts in a
 * state the generated decoders cannot read. Accounts are drawn from the world's real ones (its
 * agent, policy, open and expired holds, receipt, handles, token accounts, mints, programs,
 * sysvars) and a few random keys; signer flags only where the suite holds the key.
 */
import {
  AGENT_CREATE_DISCRIMINATOR,
  AGENT_TRANSFER_DISCRIMINATOR,
  buildAgentCreateInstruction,
  buildConfigInitializeInstruction,
  buildTransferRecordInstruction,
  CONFIG_INITIALIZE_DISCRIMINATOR,
  HANDLE_REGISTER_DISCRIMINATOR,
  PENDING_APPROVE_DISCRIMINATOR,
  PENDING_CLOSE_EXPIRED_DISCRIMINATOR,
  PENDING_REJECT_DISCRIMINATOR,
  POLICY_UPDATE_DISCRIMINATOR,
  TRANSFER_RECORD_DISCRIMINATOR,
} from "@cpay/sdk";
import {
  type AccountMeta,
  AccountRole,
  type Address,
  address,
  type Instruction,
  type KeyPairSigner,
  type ReadonlyUint8Array,
} from "@solana/kit";
import { ASSOCIATED_TOKEN_PROGRAM_ADDRESS, TOKEN_2022_PROGRAM_ADDRESS } from "@solana-program/token-2022";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { unreadableProgramAccounts } from "../support/decode-program-accounts";
import {
  createPolicyWorld,
  DEFAULT_POLICY,
  type PolicyWorld,
  transferId,
  usdg,
  utc,
} from "../support/policy-world";
import { registerForStranger } from "../support/stranger-handle";
import { testKey, testSigner } from "../support/test-keys";

const SYSTEM_PROGRAM = address("11111111111111111111111111111111");
const CLOCK_SYSVAR = address("SysvarC1ock11111111111111111111111111111111");
const RENT_SYSVAR = address("SysvarRent111111111111111111111111111111111");

/** 300 by default (a few seconds); `FUZZ_RUNS=20000` for a longer hunt. */
const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? 300);

const DISCRIMINATORS: readonly ReadonlyUint8Array[] = [
  CONFIG_INITIALIZE_DISCRIMINATOR,
  HANDLE_REGISTER_DISCRIMINATOR,
  AGENT_CREATE_DISCRIMINATOR,
  POLICY_UPDATE_DISCRIMINATOR,
  AGENT_TRANSFER_DISCRIMINATOR,
  PENDING_APPROVE_DISCRIMINATOR,
  PENDING_REJECT_DISCRIMINATOR,
  PENDING_CLOSE_EXPIRED_DISCRIMINATOR,
  TRANSFER_RECORD_DISCRIMINATOR,
];

/** One account the fuzzer may pass; `signer` when the suite holds its key. */
interface PoolEntry {
  readonly address: Address;
  readonly signer?: KeyPairSigner;
}

/** What a generated case is, before it becomes an instruction. */
type FuzzCase =
  | {
      readonly kind: "random";
      readonly data: Uint8Array;
      readonly accounts: readonly { pick: number; writable: boolean; signer: boolean }[];
    }
  | {
      readonly kind: "mutated";
      readonly template: number;
      readonly swaps: readonly { at: number; pick: number }[];
      readonly flags: readonly { at: number; writable: boolean; signer: boolean }[];
      readonly data: {
        readonly cut: number;
        readonly tail: Uint8Array;
        readonly flips: readonly [number, number][];
      };
    };

function discriminatorOf(data: ReadonlyUint8Array): number {
  return DISCRIMINATORS.findIndex((disc) => disc.every((byte, i) => data[i] === byte));
}

describe("fuzz: random instructions against the program", () => {
  let world: PolicyWorld;
  let pool: PoolEntry[];
  let templates: Instruction[];
  /** Keys whose signature makes each instruction legitimate (the oracle). */
  let agentSigners: Set<Address>;
  let owners: Set<Address>;
  let watched: Address[];

  beforeAll(async () => {
    world = await createPolicyWorld();
    const bobBot = await world.createAgent({ owner: "bob", name: "bot" });
    // An expired hold (nonce 0: one-hour window, held at 12:00, now 14:00) and an open one (nonce 1)
    expect((await world.updatePolicy({ approval_window_seconds: 3_600 })).err).toBeNull();
    const expired = await world.pendingAddress(0n);
    expect((await world.transfer({ amount: usdg(60) })).err).toBeNull();
    world.at(utc(0, 14));
    expect((await world.updatePolicy({ approval_window_seconds: 86_400 })).err).toBeNull();
    const open = await world.pendingAddress(1n);
    expect((await world.transfer({ amount: usdg(70), to: "acme" })).err).toBeNull();
    const other = await world.createMint("fuzz other");
    const agentOther = await other.fund(world.agent.address, usdg(5));
    const record = await buildTransferRecordInstruction({
      sender: world.stranger,
      payer: world.stranger,
      transferId: transferId(4242),
      confidential: true,
      memo: new Uint8Array([9, 9]),
      source: world.alice.usdg,
      destination: world.recipients.bob.usdg,
      mint: world.usdgMint,
    });
    expect((await world.send([record], { payer: world.stranger })).err).toBeNull();
    const receipt = record.accounts[1].address;

    const randomSigners = await Promise.all([1, 2, 3].map((n) => testSigner(`fuzz key ${n}`)));
    const signers: KeyPairSigner[] = [
      world.feePayer,
      world.registrar,
      world.stranger,
      world.admin,
      world.alice.wallet,
      ...Object.values(world.recipients).map((party) => party.wallet),
      world.agent.signer,
      bobBot.signer,
      ...randomSigners,
    ];
    const plain = new Set<Address>([
      ...world.addresses(),
      expired,
      open,
      receipt,
      other.mint,
      agentOther,
      TOKEN_2022_PROGRAM_ADDRESS,
      ASSOCIATED_TOKEN_PROGRAM_ADDRESS,
      SYSTEM_PROGRAM,
      CLOCK_SYSVAR,
      RENT_SYSVAR,
      testKey("fuzz address 1").address,
      testKey("fuzz address 2").address,
    ]);
    for (const signer of signers) plain.delete(signer.address);
    pool = [
      ...signers.map((signer) => ({ address: signer.address, signer })),
      ...[...plain].map((a) => ({ address: a })),
    ];
    watched = pool.map((entry) => entry.address).filter((a) => a !== CLOCK_SYSVAR && a !== RENT_SYSVAR);
    agentSigners = new Set([world.agent.signer.address, bobBot.signer.address]);
    owners = new Set([world.alice.wallet.address, world.recipients.bob.wallet.address]);

    templates = [
      await world.transferInstruction({ amount: 1n }),
      await world.transferInstruction({ amount: usdg(60), to: "pay.acme" }),
      await world.transferInstruction({ amount: 1n, agent: bobBot }),
      await world.approveInstruction(open),
      world.rejectInstruction(open),
      world.closeExpiredInstruction(expired),
      await world.updatePolicyInstruction({ daily_limit_usdg: "300", allowed_recipients: ["*.acme"] }),
      await buildTransferRecordInstruction({
        sender: world.stranger,
        payer: world.stranger,
        transferId: transferId(4243),
        confidential: false,
        memo: new Uint8Array(3),
        source: world.agent.usdg,
        destination: world.recipients.acme.usdg,
        mint: world.usdgMint,
      }),
      await registerForStranger(world, "fuzz", { kind: "business" }),
      (
        await buildAgentCreateInstruction({
          owner: world.alice.wallet,
          ownerHandle: "alice",
          name: "fuzzbot",
          agentSigner: world.stranger.address,
          policy: DEFAULT_POLICY,
          payer: world.feePayer,
          assets: world.assets,
        })
      ).instruction,
      await buildConfigInitializeInstruction({ admin: world.admin, registrar: world.stranger.address }),
    ];
  });

  /** The account meta for pool entry `pick`, signing only when asked and possible. */
  function metaOf(pick: number, writableWanted: boolean, signer: boolean): AccountMeta {
    const entry = pool[pick % pool.length] as PoolEntry;
    const signs = signer && entry.signer !== undefined;
    // A transaction cannot even be encoded with the invoked program writable
    const writable = writableWanted && entry.address !== world.programId;
    const role = signs
      ? writable
        ? AccountRole.WRITABLE_SIGNER
        : AccountRole.READONLY_SIGNER
      : writable
        ? AccountRole.WRITABLE
        : AccountRole.READONLY;
    return signs
      ? ({ address: entry.address, role, signer: entry.signer } as AccountMeta)
      : { address: entry.address, role };
  }

  function instructionOf(fuzzCase: FuzzCase): Instruction {
    if (fuzzCase.kind === "random") {
      return {
        programAddress: world.programId,
        accounts: fuzzCase.accounts.map((a) => metaOf(a.pick, a.writable, a.signer)),
        data: fuzzCase.data,
      };
    }
    const template = templates[fuzzCase.template % templates.length] as Instruction;
    const accounts = [...(template.accounts ?? [])];
    for (const swap of fuzzCase.swaps) {
      if (accounts.length === 0) break;
      const at = swap.at % accounts.length;
      const old = accounts[at] as AccountMeta;
      const isWritable = old.role === AccountRole.WRITABLE || old.role === AccountRole.WRITABLE_SIGNER;
      const isSigner = old.role === AccountRole.READONLY_SIGNER || old.role === AccountRole.WRITABLE_SIGNER;
      accounts[at] = metaOf(swap.pick, isWritable, isSigner);
    }
    for (const flag of fuzzCase.flags) {
      if (accounts.length === 0) break;
      const at = flag.at % accounts.length;
      const entry = pool.findIndex((candidate) => candidate.address === accounts[at]?.address);
      accounts[at] =
        entry >= 0
          ? metaOf(entry, flag.writable, flag.signer)
          : {
              address: (accounts[at] as AccountMeta).address,
              role: flag.writable ? AccountRole.WRITABLE : AccountRole.READONLY,
            };
    }
    const original = template.data ?? new Uint8Array(0);
    const data = new Uint8Array([
      ...original.slice(0, original.length - fuzzCase.data.cut),
      ...fuzzCase.data.tail,
    ]);
    for (const [at, value] of fuzzCase.data.flips) if (data.length > 0) data[at % data.length] = value;
    return { programAddress: world.programId, accounts, data };
  }

  /**
   * Whether a call that succeeded was one its authority signed: the agent signer for
   * agent_transfer, the owner for approve/reject/policy_update/agent_create, the registrar for
   * handle_register, the admin for config_initialize; transfer_record only needs its own sender
   * and payer to sign (it only spends their rent), and closing an expired hold is anyone's right.
   */
  function isAuthorized(instruction: Instruction): boolean {
    const accounts = instruction.accounts ?? [];
    // A transaction signs per address, not per account slot: an address is a signer when any slot
    // of it asks to sign, and the fee payer always signs — so a slot mutated to "not a signer" still
    // signs when its address is the fee payer or signs in another slot.
    const signers = new Set<Address>([
      world.feePayer.address,
      ...accounts
        .filter(
          (meta) => meta.role === AccountRole.READONLY_SIGNER || meta.role === AccountRole.WRITABLE_SIGNER,
        )
        .map((meta) => meta.address),
    ]);
    const signed = (index: number, allowed: (a: Address) => boolean) => {
      const meta = accounts[index];
      return meta !== undefined && signers.has(meta.address) && allowed(meta.address);
    };
    switch (discriminatorOf(instruction.data ?? new Uint8Array(0))) {
      case 0:
        return signed(1, (a) => a === world.admin.address);
      case 1:
        return signed(1, (a) => a === world.registrar.address);
      case 2:
      case 3:
      case 5:
      case 6:
        return signed(0, (a) => owners.has(a));
      case 4:
        return signed(0, (a) => agentSigners.has(a));
      case 7:
        return true;
      case 8:
        return signed(0, () => true) && signed(2, () => true);
      default:
        return false;
    }
  }

  const bytes = (max: number) => fc.uint8Array({ maxLength: max });
  const randomCase: fc.Arbitrary<FuzzCase> = fc.record({
    kind: fc.constant("random" as const),
    data: fc.oneof(
      bytes(96),
      fc
        .tuple(fc.constantFrom(...DISCRIMINATORS), bytes(120))
        .map(([disc, tail]) => new Uint8Array([...disc, ...tail])),
    ),
    accounts: fc.array(fc.record({ pick: fc.nat(), writable: fc.boolean(), signer: fc.boolean() }), {
      maxLength: 11,
    }),
  });
  const mutatedCase: fc.Arbitrary<FuzzCase> = fc.record({
    kind: fc.constant("mutated" as const),
    template: fc.nat(),
    swaps: fc.array(fc.record({ at: fc.nat(), pick: fc.nat() }), { maxLength: 2 }),
    flags: fc.array(fc.record({ at: fc.nat(), writable: fc.boolean(), signer: fc.boolean() }), {
      maxLength: 2,
    }),
    data: fc.record({
      cut: fc.oneof(fc.constant(0), fc.nat({ max: 40 })),
      tail: fc.oneof(fc.constant(new Uint8Array(0)), bytes(24)),
      flips: fc.array(fc.tuple(fc.nat(), fc.nat({ max: 255 })), { maxLength: 2 }),
    }),
  });

  it(
    "never moves funds or breaks an account unless the right key signed a well-formed call",
    async () => {
      const tally = { refused: 0, rejected: 0, succeeded: 0 };
      await fc.assert(
        fc.asyncProperty(fc.oneof(randomCase, mutatedCase), async (fuzzCase) => {
          const instruction = instructionOf(fuzzCase);
          // Sysvars move with every slot: everything else in the pool is watched
          const before = world.snapshot(watched);
          // When it is sent (the fee payer may also appear among its accounts)
          const outcome = await world.send([instruction]);
          const changes = world.changesSince(before, outcome);
          if (outcome.rejected !== null) {
            tally.rejected += 1;
            expect(changes).toEqual([]);
          } else if (outcome.err !== null) {
            tally.refused += 1;
            // Then a refused call changed nothing but its fee
            expect(changes, outcome.logs.join("\n")).toEqual([]);
          } else {
            tally.succeeded += 1;
            // Then a call that went through was one its authority signed
            expect(isAuthorized(instruction), `${JSON.stringify(changes)}\n${outcome.logs.join("\n")}`).toBe(
              true,
            );
          }
          // And every account the program owns still reads with the generated decoders
          expect(unreadableProgramAccounts(world.cluster)).toEqual([]);
        }),
        { numRuns: FUZZ_RUNS },
      );
      expect(tally.refused).toBeGreaterThan(FUZZ_RUNS / 2);
      console.info(`fuzz: ${JSON.stringify(tally)}`);
    },
    30_000 + FUZZ_RUNS * 60,
  );
});
