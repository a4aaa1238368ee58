/**
 * The embedded cluster (DESIGN section 2): a ClusterPort backed by LiteSVM in this process.
 *
 * LiteSVM executes transactions; everything a client observes about a chain around that is kept here,
 * with real-cluster rules: a slot clock (slots, blockhashes, Clock sysvar, commitment that moves
 * with it), a 150-block blockhash window, a status cache refusing duplicates, signature verification,
 * failed transactions that land and pay, a history with per-address index, and events.
 *
 * Start-up is a genesis followed by real transactions, all visible in history: the faucet is the
 * only account funded in genesis; the fee reserve, the program's upgrade authority and the USDG mint
 * authority are funded by airdrops (System transfers from the faucet); the agent-policy program is
 * deployed through the BPF Upgradeable Loader; the USDG mint is created with Token-2022 instructions;
 * then one slot passes so the program can be invoked. Each new chain gets a random genesis hash.
 *
 * With `chainStoreDir` the chain lives on disk too (chain-store.ts): a directory holding a chain is loaded
 * instead of making a genesis, and every landed transaction and clock move is journaled before the
 * cluster goes on, so a restarted localnet is the same chain, with the same genesis hash.
 */
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { LOCALNET_KEY_LABELS, type LocalnetKey, localnetKey } from "@cpay/sdk/chain";
import { address, getBase58Decoder } from "@solana/kit";
import { LiteSVM } from "litesvm";
import { createBlockhashQueue } from "./blockhash-queue";
import { openChainStore } from "./chain-store";
import {
  blockhashQueueOf,
  readStoredAccount,
  restoreAccounts,
  resumedClock,
  type StoredAccount,
} from "./chain-store-state";
import { createClusterEmitter } from "./cluster-events";
import type {
  AccountRecord,
  ClusterEvents,
  ClusterPort,
  SignatureInfo,
  SignatureStatus,
  TransactionRecord,
} from "./cluster-port";
import { commitmentOfSlot, highestSlotAt, meetsCommitment } from "./commitment";
import { deployProgram, type ProgramDeployment } from "./deploy-program";
import { airdrop, fundFaucetInGenesis } from "./faucet";
import { createLocalTarget } from "./local-target";
import { agentPolicyProgramPath } from "./program-path";
import { createSlotClock, DEFAULT_MS_PER_SLOT, type SlotClock } from "./slot-clock";
import { createTransactionHistory } from "./transaction-history";
import { createTransactionProcessor } from "./transaction-processor";
import { createUsdgMint, mintUsdgTo, mintUsdgToOwner, type UsdgMintSettings } from "./usdg-mint";

const LAMPORTS_PER_SOL = 1_000_000_000n;
const DEFAULT_FEE_RESERVE_LAMPORTS = 10_000n * LAMPORTS_PER_SOL;
const UPGRADE_AUTHORITY_LAMPORTS = 100n * LAMPORTS_PER_SOL;
const MINT_AUTHORITY_LAMPORTS = 1_000n * LAMPORTS_PER_SOL;
/** What RPC reports as `rentEpoch` for every rent-exempt account since rent collection ended. */
const RENT_EXEMPT_RENT_EPOCH = 18_446_744_073_709_551_615n;

export interface EmbeddedClusterOptions {
  /** Milliseconds per slot for the built-in timer; 0 = manual (only `clock.advance`). Default 400. */
  readonly slotMs?: number;
  /** Cluster unix time (seconds) at the first slot. Default: now. */
  readonly unixTime?: bigint | number;
  /**
   * The agent-policy .so to deploy. Default: `AGENT_POLICY_SO`, else `<repo>/target/deploy/
   * agent_policy.so` (missing file = error). `null` starts without the program.
   */
  readonly programPath?: string | null;
  /** The program's bytes, instead of reading `programPath`. */
  readonly programBytes?: Uint8Array;
  /** Address to fund as the service's fee reserve. Default: the labelled key "fee reserve". */
  readonly feeReserve?: string;
  /** Airdropped to the fee reserve at start. Default 10,000 SOL. */
  readonly feeReserveLamports?: bigint;
  /**
   * How the USDG mint treats confidential accounts: auto-approve and auditor key (genesis only).
   * Default: auto-approve, no auditor.
   */
  readonly usdgMint?: UsdgMintSettings;
  /** Where errors thrown by event listeners go. Default console.error. */
  readonly onListenerError?: (error: unknown, event: keyof ClusterEvents) => void;
  /**
   * Keep the chain in this directory (created if missing): an empty one gets a new genesis, one
   * holding a chain is loaded and continued (the genesis options above are then ignored). Default:
   * in memory only.
   */
  readonly chainStoreDir?: string;
  /** With `chainStoreDir`: history older than this many slots is dropped at snapshots. Default DEFAULT_HISTORY_SLOTS. */
  readonly historySlots?: bigint;
  /** With `chainStoreDir`: journal size that triggers a snapshot. Default 64 MiB. */
  readonly snapshotJournalBytes?: number;
  /** With `chainStoreDir`: slots after which a snapshot is written. Default 9,000. */
  readonly snapshotEverySlots?: bigint;
}

/** The chain store a cluster keeps, if any. */
export interface EmbeddedClusterChainStore {
  readonly dir: string;
  /** True when the chain was loaded from the directory, false when it was a new genesis. */
  readonly restored: boolean;
  /** Bytes of a torn last journal record dropped at load (a send that was never answered). */
  readonly droppedTornBytes: number;
  readonly historySlots: bigint;
  /** Writes a snapshot now (the journal restarts). */
  snapshot(): void;
}

/** The labelled keys the cluster signs with (localnet only; see deterministic-keys). */
export interface EmbeddedClusterKeys {
  readonly faucet: LocalnetKey;
  readonly usdgMintAuthority: LocalnetKey;
  readonly programUpgradeAuthority: LocalnetKey;
  /** null when the fee reserve is an address passed in. */
  readonly feeReserve: LocalnetKey | null;
}

export interface EmbeddedCluster extends ClusterPort {
  /** The chain store this chain is kept in; null when it lives in memory only. */
  readonly chainStore: EmbeddedClusterChainStore | null;
  /** Slot and time control: `advance(n)`, `setUnixTime(s)`, `warpTime(s)`, current slot and time. */
  readonly clock: SlotClock;
  /** The funded fee reserve's address. */
  readonly feeReserve: string;
  readonly keys: EmbeddedClusterKeys;
  /** How the agent-policy program was deployed; null when started without it. */
  readonly deployment: ProgramDeployment | null;
  /**
   * The LiteSVM instance, for tests that need to look underneath. Writing through it bypasses the
   * history, blockhash and fee rules this cluster exists to keep.
   */
  readonly svm: LiteSVM;
  /** Mints USDG base units into an existing token account (a real MintToChecked); returns its signature. */
  mintUsdg(tokenAccount: string, amount: bigint): string;
  /** Mints USDG into `owner`'s associated token account, creating it if needed. */
  mintUsdgToOwner(
    owner: string,
    amount: bigint,
  ): Promise<{ readonly signature: string; readonly tokenAccount: string }>;
  /**
   * Stops the slot timer so the process can exit; the cluster stays usable with `clock.advance`.
   * With a chain store it also writes a final snapshot and closes the store: nothing may land after.
   */
  stop(): void;
}

/**
 * Starts an embedded cluster: genesis, funding, program deploy, USDG mint, one slot, timer — or,
 * with a `chainStoreDir` holding a chain, that chain where it stood.
 */
export async function createEmbeddedCluster(options: EmbeddedClusterOptions = {}): Promise<EmbeddedCluster> {
  const slotMs = options.slotMs ?? DEFAULT_MS_PER_SLOT;
  if (!Number.isFinite(slotMs) || slotMs < 0) throw new RangeError(`slotMs must be >= 0, got ${slotMs}`);
  const store =
    options.chainStoreDir === undefined
      ? null
      : openChainStore({
          dir: options.chainStoreDir,
          historySlots: options.historySlots,
          snapshotJournalBytes: options.snapshotJournalBytes,
          snapshotEverySlots: options.snapshotEverySlots,
        });
  const loaded = store?.loaded ?? null;
  const elf = loaded === null ? loadProgram(options) : null;

  // LiteSVM checks only its one latest blockhash; the blockhash queue below does a validator's check.
  const svm = new LiteSVM().withSigverify(true).withBlockhashCheck(false);
  const labelledFeeReserve = localnetKey(LOCALNET_KEY_LABELS.feeReserve);
  const feeReserve = loaded?.identity.feeReserve ?? options.feeReserve ?? labelledFeeReserve.address;
  const keys: EmbeddedClusterKeys = {
    faucet: localnetKey(LOCALNET_KEY_LABELS.faucet),
    usdgMintAuthority: localnetKey(LOCALNET_KEY_LABELS.usdgMintAuthority),
    programUpgradeAuthority: localnetKey(LOCALNET_KEY_LABELS.agentPolicyUpgradeAuthority),
    feeReserve: feeReserve === labelledFeeReserve.address ? labelledFeeReserve : null,
  };
  const programKey = localnetKey(LOCALNET_KEY_LABELS.agentPolicyProgram);
  const mintKey = localnetKey(LOCALNET_KEY_LABELS.usdgMint);

  // Every address the chain ever wrote: what a snapshot stores (LiteSVM cannot list its accounts).
  const written = new Set<string>();
  if (loaded === null) {
    fundFaucetInGenesis(svm, keys.faucet);
    written.add(keys.faucet.address);
  } else {
    restoreAccounts(svm, loaded.accounts.values());
    for (const account of loaded.accounts.keys()) written.add(account);
  }
  const genesisHash = loaded?.identity.genesisHash ?? getBase58Decoder().decode(randomBytes(32));
  const genesisSlot = loaded?.clock.genesisSlot ?? svm.getClock().slot;
  const blockhashes =
    loaded === null
      ? createBlockhashQueue({ blockhash: genesisHash, slot: genesisSlot, blockHeight: 0n })
      : blockhashQueueOf(loaded.clock);
  const history = createTransactionHistory(loaded?.history);
  const emitter = createClusterEmitter(options.onListenerError);
  const clock = createSlotClock({
    svm,
    blockhashes,
    slotMs,
    start:
      loaded === null
        ? {
            genesisHash,
            startUnixMs: options.unixTime === undefined ? Date.now() : Number(options.unixTime) * 1000,
          }
        : { resume: resumedClock(loaded, slotMs) },
    onChange: store === null ? undefined : (moved) => store.recordClock(moved.slot, moved.unixMs),
    onSlots: (ticks) => {
      for (const tick of ticks) {
        emitter.emit("slot", {
          slot: tick.slot,
          confirmed: highestSlotAt("confirmed", tick.slot, genesisSlot),
          finalized: highestSlotAt("finalized", tick.slot, genesisSlot),
        });
      }
    },
  });
  const processor = createTransactionProcessor({
    svm,
    clock,
    blockhashes,
    history,
    emitter,
    onLanding:
      store === null
        ? undefined
        : (record, addresses) => {
            const accounts = addresses
              .map((account) => readStoredAccount(svm, account))
              .filter((account): account is StoredAccount => account !== null);
            for (const account of accounts) {
              if (account.lamports === 0n) written.delete(account.address);
              else written.add(account.address);
            }
            store.recordTransaction(record, accounts);
          },
  });

  const target = createLocalTarget({
    blockhashes,
    history,
    processor,
    minimumBalanceForRentExemption: (dataLength) => svm.minimumBalanceForRentExemption(BigInt(dataLength)),
  });
  const fund = (to: string, amount: bigint) => airdrop(target, keys.faucet, to, amount);

  const deployment = loaded === null ? await makeGenesis() : loaded.identity.deployment;
  async function makeGenesis(): Promise<ProgramDeployment | null> {
    fund(feeReserve, options.feeReserveLamports ?? DEFAULT_FEE_RESERVE_LAMPORTS);
    fund(keys.usdgMintAuthority.address, MINT_AUTHORITY_LAMPORTS);
    let deployed: ProgramDeployment | null = null;
    if (elf !== null) {
      fund(keys.programUpgradeAuthority.address, UPGRADE_AUTHORITY_LAMPORTS);
      deployed = await deployProgram({
        target,
        authority: keys.programUpgradeAuthority,
        program: programKey,
        buffer: localnetKey(LOCALNET_KEY_LABELS.agentPolicyBuffer),
        elf,
      });
    }
    createUsdgMint({ target, mint: mintKey, authority: keys.usdgMintAuthority, settings: options.usdgMint });
    // A program deployed in slot S can be invoked from slot S + 1.
    clock.advance(1);
    return deployed;
  }
  store?.begin(() => {
    const retainFrom = clock.slot - store.historySlots;
    if (retainFrom > 0n) history.retainFrom(retainFrom);
    return {
      identity: { genesisHash, feeReserve, deployment },
      clock: clock.state(),
      accounts: [...written]
        .map((account) => readStoredAccount(svm, account))
        .filter((account): account is StoredAccount => account !== null && account.lamports > 0n),
      history: [...history.all()],
    };
  });
  clock.start();

  const statusOf = (record: TransactionRecord): SignatureStatus => {
    const confirmationStatus = commitmentOfSlot(record.slot, clock.slot);
    return {
      slot: record.slot,
      confirmations: confirmationStatus === "finalized" ? null : Number(clock.slot - record.slot),
      confirmationStatus,
      err: record.err,
    };
  };
  const slotAt = (commitment: Parameters<ClusterPort["getSlot"]>[0]) =>
    highestSlotAt(commitment ?? "processed", clock.slot, genesisSlot);

  return {
    programId: programKey.address,
    usdgMint: mintKey.address,
    genesisHash,
    chainStore:
      store === null
        ? null
        : {
            dir: store.dir,
            restored: loaded !== null,
            droppedTornBytes: store.droppedTornBytes,
            historySlots: store.historySlots,
            snapshot: () => store.snapshot(),
          },
    clock,
    feeReserve,
    keys,
    deployment,
    svm,

    getSlot: (commitment) => slotAt(commitment),
    getBlockHeight: (commitment) => slotAt(commitment) - genesisSlot,
    getLatestBlockhash() {
      const latest = blockhashes.latest();
      return { blockhash: latest.blockhash, lastValidBlockHeight: blockhashes.lastValidBlockHeight(latest) };
    },
    isBlockhashValid: (blockhash) => blockhashes.lookup(blockhash) !== null,
    minimumBalanceForRentExemption: (dataLength) => svm.minimumBalanceForRentExemption(BigInt(dataLength)),

    getAccount(addressText) {
      const account = svm.getAccount(address(addressText));
      if (!account.exists || account.lamports === 0n) return null;
      return toAccountRecord(account.address, account);
    },
    getProgramAccounts(programId) {
      // LiteSVM >= 1.3 scans its accounts db by owner, so accounts created outside transactions
      // (genesis, setAccount in tests) are found too.
      return svm
        .getProgramAccounts(address(programId))
        .filter((account) => account.lamports > 0n)
        .map((account) => toAccountRecord(account.address, account));
    },

    sendTransaction: (wire, sendOptions) => processor.send(wire, sendOptions),
    simulateTransaction: (wire, simulateOptions) => processor.simulate(wire, simulateOptions),
    requestAirdrop: (to, amount) => fund(to, amount).signature,

    getSignatureStatus(signature) {
      const record = history.get(signature);
      return record === null ? null : statusOf(record);
    },
    getTransaction(signature, commitment = "processed") {
      const record = history.get(signature);
      if (record === null) return null;
      return meetsCommitment(commitmentOfSlot(record.slot, clock.slot), commitment) ? record : null;
    },
    getSignaturesForAddress(addressText, page) {
      return history.forAddress(addressText, page).map(
        (record): SignatureInfo => ({
          signature: record.signature,
          slot: record.slot,
          err: record.err,
          blockTime: record.blockTime,
          confirmationStatus: commitmentOfSlot(record.slot, clock.slot),
        }),
      );
    },
    on: (event, listener) => emitter.on(event, listener),

    mintUsdg: (tokenAccount, amount) =>
      mintUsdgTo({
        target,
        mint: mintKey.address,
        authority: keys.usdgMintAuthority,
        tokenAccount: address(tokenAccount),
        amount,
      }).signature,
    async mintUsdgToOwner(owner, amount) {
      const { record, tokenAccount } = await mintUsdgToOwner({
        target,
        mint: mintKey.address,
        authority: keys.usdgMintAuthority,
        owner: address(owner),
        amount,
      });
      return { signature: record.signature, tokenAccount };
    },
    stop() {
      clock.stop();
      store?.close();
    },
  };
}

function loadProgram(options: EmbeddedClusterOptions): Uint8Array | null {
  if (options.programBytes !== undefined) return options.programBytes;
  if (options.programPath === null) return null;
  const path = options.programPath ?? agentPolicyProgramPath();
  if (!existsSync(path)) {
    throw new Error(
      `agent-policy program not found at ${path}: build it (npm run build:program), set AGENT_POLICY_SO, ` +
        "or pass programPath: null to start without it",
    );
  }
  return new Uint8Array(readFileSync(path));
}

function toAccountRecord(
  addressText: string,
  account: { lamports: bigint; programAddress: string; executable: boolean; data: ArrayLike<number> },
): AccountRecord {
  return {
    address: addressText,
    lamports: account.lamports,
    owner: account.programAddress,
    executable: account.executable,
    rentEpoch: RENT_EXEMPT_RENT_EPOCH,
    data: Uint8Array.from(account.data),
  };
}
