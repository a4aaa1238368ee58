/**
 * The world every agent-policy suite starts from, on the real .so in an embedded LiteSVM cluster
 * with manual slots: config initialized (the upgrade authority as admin, a registrar), personal
 * handle `alice` owning the agent `alice/bot` (its own signer key, a policy, 1,000 USDG in the
 * agent PDA's Token-2022 account), and recipients `bob` (personal), `pay.acme`, `x.pay.acme`,
 * `acme`, `xacme` (business), each with a handle and a USDG account. Time stands at 12:00:00 UTC on
 * DAY_ZERO and only moves when a test calls `at`.
 *
 * Every instruction is built with the SDK (`@cpay/sdk` builders on the Codama-generated client);
 * attacks start from those instructions and swap accounts (`withAccount`). Keys are deterministic
 * (test-keys), so addresses, PDA bumps and compute units are the same on every run.
 */

import {
  createEmbeddedCluster,
  type EmbeddedCluster,
  inProcessChain,
  USDG_DECIMALS,
} from "@cpay/localnet/cluster";
import {
  type Agent,
  type AssetTable,
  buildAgentCreateInstruction,
  buildAgentTransferInstruction,
  buildConfigInitializeInstruction,
  buildHandleRegisterInstruction,
  buildPendingApproveInstruction,
  buildPendingCloseExpiredInstruction,
  buildPendingRejectInstruction,
  buildPolicyUpdateInstruction,
  findHandlePda,
  findPendingTransactionPda,
  getAgentDecoder,
  getPendingTransactionDecoder,
  getPolicyDecoder,
  type PendingTransaction,
  type Policy,
  type SpendPolicyInput,
  type SpendPolicyUpdateInput,
} from "@cpay/sdk";
import type { ChainPort } from "@cpay/sdk/chain";
import {
  type AccountMeta,
  AccountRole,
  type Address,
  type Instruction,
  type KeyPairSigner,
} from "@solana/kit";
import { type Snapshot, snapshotAccounts, snapshotDifferences } from "./account-snapshot";
import { type Outcome, sendToCluster } from "./cluster-send";
import { programTestSigners, testSigner } from "./test-keys";
import { createToken2022Mint, fundedTokenAccount, tokenAmount } from "./token-2022";
import { UNITS_PER_USDG, usdg } from "./usdg-units";

/** USDG has 6 decimals: `usdg(100)` is 100 USDG in base units. */
export { UNITS_PER_USDG, usdg };

/** 2026-03-10T00:00:00Z: day 0 of every world. */
export const DAY_ZERO = BigInt(Date.UTC(2026, 2, 10) / 1000);
export const SECONDS_PER_DAY = 86_400n;

/** Unix seconds of `hh:mm:ss` UTC on day `day` after DAY_ZERO. */
export function utc(day: number, hh: number, mm = 0, ss = 0): bigint {
  return DAY_ZERO + BigInt(day) * SECONDS_PER_DAY + BigInt(hh * 3600 + mm * 60 + ss);
}

/** Per transaction 100, daily 250, HITL 50 (USDG); USDG only; any recipient; all day; 24 h to approve. */
export const DEFAULT_POLICY = {
  per_transaction_limit_usdg: "100",
  daily_limit_usdg: "250",
  hitl_threshold_usdg: "50",
  assets: ["USDG"],
  allowed_recipients: [],
  active_hours: "00:00-00:00",
  approval_window_seconds: 86_400,
} as const satisfies SpendPolicyInput;

export const PER_TRANSACTION_LIMIT = usdg(100);
export const DAILY_LIMIT = usdg(250);
export const HITL_THRESHOLD = usdg(50);
export const AGENT_FUNDS = usdg(1_000);

export const RECIPIENT_HANDLES = ["bob", "pay.acme", "x.pay.acme", "acme", "xacme"] as const;
export type RecipientName = (typeof RECIPIENT_HANDLES)[number];

/** A registered account handle: its wallet, Handle account and USDG account. */
export interface Party {
  readonly handle: string;
  readonly wallet: KeyPairSigner;
  readonly handleAccount: Address;
  readonly usdg: Address;
}

/** An agent of the world: its PDAs, owner, signer and funded USDG account. */
export interface WorldAgent {
  readonly handle: string;
  readonly address: Address;
  readonly policy: Address;
  readonly handleAccount: Address;
  readonly owner: KeyPairSigner;
  readonly signer: KeyPairSigner;
  readonly usdg: Address;
}

/** A Token-2022 mint of the world besides USDG. */
export interface WorldMint {
  readonly mint: Address;
  /** `owner`'s associated account of this mint (created if needed), credited with `amount`. */
  fund(owner: Address, amount: bigint): Promise<Address>;
}

export interface TransferOptions {
  readonly amount: bigint;
  /** Default `bob`: pays its USDG account and proves its handle. */
  readonly to?: RecipientName;
  /** Another destination token account than the recipient's USDG account. */
  readonly destination?: Address;
  /** Default: `to`'s handle; null passes none (the program id). */
  readonly recipientHandle?: string | null;
  readonly agent?: WorldAgent;
  /** Default: the agent's signer. */
  readonly agentSigner?: KeyPairSigner;
  readonly source?: Address;
  readonly mint?: Address;
  /** Pays a hold's rent. Default: the world's fee payer. */
  readonly payer?: KeyPairSigner;
  readonly transferId?: Uint8Array;
  /** The hold nonce the pending PDA is derived from. Default: the agent's `next_hold_nonce`. */
  readonly nonce?: bigint;
}

export interface HoldOptions {
  /** Default: the agent's owner. */
  readonly owner?: KeyPairSigner;
  /** Default: the world's fee payer. */
  readonly payer?: KeyPairSigner;
}

export interface PolicyWorld {
  /** The simulator itself: sends and reads of the suites' own, and the clock. */
  readonly cluster: EmbeddedCluster;
  /** The chain port over it (one per world): what SDK flows go through. */
  readonly chain: ChainPort;
  readonly programId: Address;
  readonly usdgMint: Address;
  readonly assets: AssetTable;
  readonly feePayer: KeyPairSigner;
  readonly admin: KeyPairSigner;
  readonly registrar: KeyPairSigner;
  /** A funded key with no role anywhere. */
  readonly stranger: KeyPairSigner;
  readonly alice: Party;
  readonly agent: WorldAgent;
  readonly recipients: Readonly<Record<RecipientName, Party>>;

  /** Lands instructions paid by the fee payer (or `payer`). */
  send(
    instructions: readonly Instruction[],
    options?: { readonly payer?: KeyPairSigner; readonly signers?: readonly KeyPairSigner[] },
  ): Promise<Outcome>;
  /** Sets the cluster clock (unix seconds). */
  at(unixSeconds: bigint): void;
  now(): bigint;

  transferInstruction(options: TransferOptions): Promise<Instruction>;
  transfer(options: TransferOptions): Promise<Outcome>;
  approveInstruction(pending: Address, options?: HoldOptions): Promise<Instruction>;
  approve(pending: Address, options?: HoldOptions): Promise<Outcome>;
  rejectInstruction(pending: Address, options?: HoldOptions): Instruction;
  reject(pending: Address, options?: HoldOptions): Promise<Outcome>;
  closeExpiredInstruction(pending: Address): Instruction;
  closeExpired(pending: Address, options?: HoldOptions): Promise<Outcome>;
  updatePolicyInstruction(
    update: SpendPolicyUpdateInput,
    options?: { readonly owner?: KeyPairSigner; readonly agent?: WorldAgent },
  ): Promise<Instruction>;
  updatePolicy(
    update: SpendPolicyUpdateInput,
    options?: { readonly owner?: KeyPairSigner; readonly agent?: WorldAgent },
  ): Promise<Outcome>;
  /** Registers an account handle for a new labelled wallet, with an empty USDG account. */
  registerParty(handle: string, kind?: "personal" | "business"): Promise<Party>;
  /** Registers a personal handle for a new labelled wallet and creates an agent under it. */
  createAgent(input: {
    readonly owner: string;
    readonly name: string;
    readonly policy?: SpendPolicyInput;
    readonly funds?: bigint;
  }): Promise<WorldAgent>;

  /** Another Token-2022 mint (6 decimals, the fee payer's key as authority) and funded accounts of it. */
  createMint(label: string): Promise<WorldMint>;

  readAgent(agent?: WorldAgent): Agent;
  readPolicy(agent?: WorldAgent): Policy;
  /** The hold at `pending`, or null when there is none (never created, or closed). */
  readPending(pending: Address): PendingTransaction | null;
  pendingAddress(nonce: bigint, agent?: WorldAgent): Promise<Address>;
  balance(tokenAccount: Address): bigint;
  lamports(address: Address): bigint;

  /** Every address of the world (wallets, handles, token accounts, agent, policy, mint...) plus `extra`. */
  addresses(extra?: readonly Address[]): Address[];
  snapshot(extra?: readonly Address[]): Snapshot;
  /** What changed since `before`, beyond the fee `outcome` cost its payer (the fee payer by default). */
  changesSince(before: Snapshot, outcome: Outcome, payer?: KeyPairSigner): string[];
  /**
   * Runs one attempt between two snapshots of the world (plus `extra` addresses): its outcome and
   * every change it made beyond its fee (paid by `payer`, the fee payer by default).
   */
  attempt(
    run: () => Promise<Outcome>,
    options?: { readonly extra?: readonly Address[]; readonly payer?: KeyPairSigner },
  ): Promise<{ readonly outcome: Outcome; readonly changes: string[] }>;
}

/** A 16-byte transfer id whose first bytes are `n` (big-endian): deterministic, distinct per n. */
export function transferId(n: number): Uint8Array {
  const id = new Uint8Array(16);
  new DataView(id.buffer).setUint32(0, n);
  id[15] = 0x7e;
  return id;
}

/** A copy of `instruction` with account `index` replaced (address and, optionally, role). */
export function withAccount(
  instruction: Instruction,
  index: number,
  replacement: { readonly address: Address; readonly role?: AccountRole; readonly signer?: KeyPairSigner },
): Instruction {
  const accounts = [...(instruction.accounts ?? [])];
  const old = accounts[index];
  if (old === undefined) throw new RangeError(`instruction has no account ${index}`);
  const role = replacement.role ?? old.role;
  const meta: AccountMeta =
    replacement.signer === undefined
      ? { address: replacement.address, role }
      : ({ address: replacement.address, role, signer: replacement.signer } as AccountMeta);
  accounts[index] = meta;
  return { ...instruction, accounts };
}

export { AccountRole };

/** Builds the world (see the module doc). Each call is a new cluster: tests stay independent. */
export async function createPolicyWorld(
  options: { readonly policy?: SpendPolicyInput } = {},
): Promise<PolicyWorld> {
  const cluster = await createEmbeddedCluster({ slotMs: 0, unixTime: utc(0, 12) });
  const programId = cluster.programId as Address;
  const usdgMint = cluster.usdgMint as Address;
  const assets: AssetTable = { USDG: { mint: usdgMint, decimals: USDG_DECIMALS } };
  const { feePayer, registrar, stranger, admin } = await programTestSigners(cluster);
  cluster.requestAirdrop(feePayer.address, 1_000_000_000_000n);
  cluster.requestAirdrop(stranger.address, 10_000_000_000n);

  const send: PolicyWorld["send"] = (instructions, sendOptions = {}) =>
    sendToCluster(cluster, {
      payer: sendOptions.payer ?? feePayer,
      instructions,
      signers: sendOptions.signers,
    });
  const mustSend = async (instructions: readonly Instruction[], what: string) => {
    const outcome = await send(instructions);
    if (outcome.err !== null) {
      throw new Error(`${what} failed: ${JSON.stringify(outcome.err)}\n${outcome.logs.join("\n")}`);
    }
    return outcome;
  };

  await mustSend(
    [await buildConfigInitializeInstruction({ admin, registrar: registrar.address })],
    "config_initialize",
  );

  const registerParty = async (handle: string, kind: "personal" | "business"): Promise<Party> => {
    const wallet = await testSigner(`wallet ${handle}`);
    await mustSend(
      [
        await buildHandleRegisterInstruction({
          registrar,
          payer: feePayer,
          handle,
          kind,
          wallet: wallet.address,
        }),
      ],
      `handle_register ${handle}`,
    );
    const [handleAccount] = await findHandlePda({ handle });
    const { tokenAccount } = await cluster.mintUsdgToOwner(wallet.address, 0n);
    return { handle, wallet, handleAccount, usdg: tokenAccount as Address };
  };

  const agents: WorldAgent[] = [];
  /** Mints made by `createMint` and their token accounts, for snapshots. */
  const otherTokenAddresses: Address[] = [];
  const parties: Party[] = [];
  const createAgentUnder = async (
    owner: Party,
    name: string,
    policy: SpendPolicyInput,
    funds: bigint,
  ): Promise<WorldAgent> => {
    const signer = await testSigner(`agent signer ${owner.handle}/${name}`);
    const created = await buildAgentCreateInstruction({
      owner: owner.wallet,
      ownerHandle: owner.handle,
      name,
      agentSigner: signer.address,
      policy,
      payer: feePayer,
      assets,
    });
    await mustSend([created.instruction], `agent_create ${created.agentHandle}`);
    const [handleAccount] = await findHandlePda({ handle: created.agentHandle });
    const { tokenAccount } = await cluster.mintUsdgToOwner(created.agent, funds);
    const agent: WorldAgent = {
      handle: created.agentHandle,
      address: created.agent,
      policy: created.policy,
      handleAccount,
      owner: owner.wallet,
      signer,
      usdg: tokenAccount as Address,
    };
    agents.push(agent);
    return agent;
  };

  const alice = await registerParty("alice", "personal");
  await cluster.mintUsdgToOwner(alice.wallet.address, usdg(100));
  parties.push(alice);
  const recipients = {} as Record<RecipientName, Party>;
  for (const handle of RECIPIENT_HANDLES) {
    recipients[handle] = await registerParty(handle, handle === "bob" ? "personal" : "business");
    parties.push(recipients[handle]);
  }
  const agent = await createAgentUnder(alice, "bot", options.policy ?? DEFAULT_POLICY, AGENT_FUNDS);

  const readAccount = (address: Address) => {
    const account = cluster.getAccount(address);
    if (account === null) throw new Error(`no account at ${address}`);
    return account.data;
  };
  const readAgent = (which: WorldAgent = agent) => getAgentDecoder().decode(readAccount(which.address));
  const readPending = (pending: Address) => {
    const account = cluster.getAccount(pending);
    if (account === null || account.owner !== programId) return null;
    return getPendingTransactionDecoder().decode(account.data);
  };
  const mustReadPending = (pending: Address) => {
    const hold = readPending(pending);
    if (hold === null) throw new Error(`no hold at ${pending}`);
    return hold;
  };
  let nextTransferId = 1;

  const transferInstruction = async (transfer: TransferOptions): Promise<Instruction> => {
    const from = transfer.agent ?? agent;
    const to = recipients[transfer.to ?? "bob"];
    const recipientHandle = transfer.recipientHandle === undefined ? to.handle : transfer.recipientHandle;
    return buildAgentTransferInstruction({
      agentSigner: transfer.agentSigner ?? from.signer,
      agent: from.address,
      nextHoldNonce: transfer.nonce ?? readAgent(from).nextHoldNonce,
      mint: transfer.mint ?? usdgMint,
      destination: transfer.destination ?? to.usdg,
      amount: transfer.amount,
      transferId: transfer.transferId ?? transferId(nextTransferId++),
      payer: transfer.payer ?? feePayer,
      source: transfer.source ?? from.usdg,
      recipientHandle: recipientHandle ?? undefined,
    });
  };
  const approveInstruction = (pending: Address, hold: HoldOptions = {}) => {
    const stored = mustReadPending(pending);
    const owner = hold.owner ?? agents.find((candidate) => candidate.address === stored.agent)?.owner;
    if (owner === undefined) throw new Error(`no owner known for agent ${stored.agent}`);
    return buildPendingApproveInstruction({ owner, pending, hold: stored });
  };
  const rejectInstruction = (pending: Address, hold: HoldOptions = {}) => {
    const stored = mustReadPending(pending);
    const owner = hold.owner ?? agents.find((candidate) => candidate.address === stored.agent)?.owner;
    if (owner === undefined) throw new Error(`no owner known for agent ${stored.agent}`);
    return buildPendingRejectInstruction({ owner, pending, hold: stored });
  };
  const closeExpiredInstruction = (pending: Address) =>
    buildPendingCloseExpiredInstruction({ pending, hold: mustReadPending(pending) });
  const updatePolicyInstruction: PolicyWorld["updatePolicyInstruction"] = (update, who = {}) => {
    const target = who.agent ?? agent;
    return buildPolicyUpdateInstruction({
      owner: who.owner ?? target.owner,
      agent: target.address,
      update,
      assets,
    });
  };

  const addresses = (extra: readonly Address[] = []): Address[] => [
    programId,
    usdgMint,
    feePayer.address,
    registrar.address,
    stranger.address,
    admin.address,
    ...parties.flatMap((party) => [party.wallet.address, party.handleAccount, party.usdg]),
    ...agents.flatMap((each) => [
      each.address,
      each.policy,
      each.handleAccount,
      each.usdg,
      each.signer.address,
    ]),
    ...otherTokenAddresses,
    ...extra,
  ];

  const changesSince: PolicyWorld["changesSince"] = (before, outcome, payer = feePayer) =>
    snapshotDifferences(before, snapshotAccounts(cluster, before.keys()), {
      feePayer: payer.address,
      fee: outcome.fee,
    });

  return {
    cluster,
    chain: inProcessChain(cluster),
    programId,
    usdgMint,
    assets,
    feePayer,
    admin,
    registrar,
    stranger,
    alice,
    agent,
    recipients,
    send,
    at: (unixSeconds) => cluster.clock.setUnixTime(unixSeconds),
    now: () => cluster.clock.unixTimestamp,
    transferInstruction,
    transfer: async (transfer) =>
      send([await transferInstruction(transfer)], { payer: transfer.payer ?? feePayer }),
    approveInstruction,
    approve: async (pending, hold = {}) =>
      send([await approveInstruction(pending, hold)], { payer: hold.payer ?? feePayer }),
    rejectInstruction,
    reject: (pending, hold = {}) =>
      send([rejectInstruction(pending, hold)], { payer: hold.payer ?? feePayer }),
    closeExpiredInstruction,
    closeExpired: (pending, hold = {}) =>
      send([closeExpiredInstruction(pending)], { payer: hold.payer ?? feePayer }),
    updatePolicyInstruction,
    updatePolicy: async (update, who = {}) => send([await updatePolicyInstruction(update, who)]),
    async registerParty(handle, kind = "personal") {
      const party = await registerParty(handle, kind);
      parties.push(party);
      return party;
    },
    async createAgent(input) {
      let owner = parties.find((party) => party.handle === input.owner);
      if (owner === undefined) {
        owner = await registerParty(input.owner, "personal");
        parties.push(owner);
      }
      return createAgentUnder(owner, input.name, input.policy ?? DEFAULT_POLICY, input.funds ?? AGENT_FUNDS);
    },
    async createMint(label) {
      const sendWithSigners = (
        instructions: readonly Instruction[],
        signers: readonly KeyPairSigner[] = [],
      ) => send(instructions, { signers });
      const mint = await createToken2022Mint(cluster, sendWithSigners, {
        payer: feePayer,
        mint: await testSigner(`mint ${label}`),
        authority: feePayer.address,
        decimals: USDG_DECIMALS,
      });
      otherTokenAddresses.push(mint);
      return {
        mint,
        async fund(owner, amount) {
          const account = await fundedTokenAccount(sendWithSigners, {
            payer: feePayer,
            owner,
            mint,
            mintAuthority: feePayer,
            decimals: USDG_DECIMALS,
            amount,
          });
          otherTokenAddresses.push(account);
          return account;
        },
      };
    },
    readAgent,
    readPolicy: (which = agent) => getPolicyDecoder().decode(readAccount(which.policy)),
    readPending,
    pendingAddress: async (nonce, which = agent) =>
      (await findPendingTransactionPda({ agent: which.address, nonce }))[0],
    balance: (tokenAccount) => tokenAmount(cluster, tokenAccount),
    lamports: (address) => cluster.getAccount(address)?.lamports ?? 0n,
    addresses,
    snapshot: (extra = []) => snapshotAccounts(cluster, addresses(extra)),
    changesSince,
    async attempt(run, attemptOptions = {}) {
      const before = snapshotAccounts(cluster, addresses(attemptOptions.extra));
      const outcome = await run();
      return { outcome, changes: changesSince(before, outcome, attemptOptions.payer) };
    },
  };
}
