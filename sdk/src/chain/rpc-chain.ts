/**
 * The chain port over Solana JSON-RPC + PubSub: any validator or provider, and the localnet
 * (`@cpay/sdk/localnet`), on @solana/kit's RPC and subscription clients.
 *
 * Every answer is normalised at this boundary (rpc-normalize.ts) to the plain data the in-process
 * chain gives, so code above the port cannot tell the two apart; a contract suite runs the same
 * checks against both. Differences RPC forces, kept as small as a validator allows:
 * - history (getTransaction, getSignaturesForAddress) is never served below `confirmed` by a
 *   validator, so a `processed` history read is asked at `confirmed`;
 * - without `preflight`, a node answers a send with its signature and drops what cannot land (stale
 *   blockhash, duplicate, bad signature): only malformed bytes are refused then. With `preflight`
 *   every refusal comes back as SubmissionRejected (rpc-errors.ts).
 * A transport failure is ChainUnavailable (rpc-transport.ts); HTTP 429/5xx are asked again with
 * backoff and jitter within `retryBudgetMs` first (rpc-retry.ts), sends included (the same signed
 * bytes: a transaction lands once at most).
 *
 * Reads never go back in time. Behind a load balancer, or on a node that lags, an answer can come
 * from an older slot than one this port already saw: a blockhash fetched a moment ago would read as
 * invalid (as if expired), a landed transaction as unknown (as if dropped). So the port keeps the
 * highest context slot it has seen per commitment and asks every read that takes one with that
 * `minContextSlot` (a node behind it answers -32016 and is asked again); signature statuses, which
 * take none, are asked again while their context slot is below it. A node still behind when the
 * budget is spent is ChainUnavailable, and the floor is forgotten (a validator restarted from an
 * older snapshot is the cluster now).
 */
import {
  address,
  blockhash,
  createSolanaRpcFromTransport,
  createSolanaRpcSubscriptions,
  getBase64Decoder,
  lamports,
  signature,
} from "@solana/kit";
import type { ChainPort, LogsNotification } from "./chain-port";
import { type AccountRecord, type Commitment, type SignatureStatus, SubmissionRejected } from "./chain-types";
import { JSON_RPC_CODES, RpcResponseError, submissionRejectionOf } from "./rpc-errors";
import {
  accountRecordOf,
  objectAt,
  signatureInfoOf,
  signatureStatusOf,
  simulationOf,
  text,
  toTransactionErrorJson,
  transactionRecordOf,
  u64,
} from "./rpc-normalize";
import { DEFAULT_RETRY_BUDGET_MS, MIN_CONTEXT_SLOT_NOT_REACHED, withRetry } from "./rpc-retry";
import { followSubscription } from "./rpc-subscription";
import { createChainTransport } from "./rpc-transport";
import { simulatedCallsOf } from "./simulated-calls";

export interface RpcChainOptions {
  /** HTTP JSON-RPC endpoint. */
  readonly rpcUrl: string;
  /** WebSocket PubSub endpoint. */
  readonly wsUrl: string;
  /** The agent-policy program id deployed on that cluster. */
  readonly programId: string;
  /** The USDG mint on that cluster. */
  readonly usdgMint: string;
  /** Longest wait for one HTTP answer before it is ChainUnavailable; default 30 s. */
  readonly timeoutMs?: number;
  /** How long a busy (429/5xx) or lagging endpoint is asked again before ChainUnavailable; default 10 s. */
  readonly retryBudgetMs?: number;
  /**
   * A live subscription dropped and is being opened again, or a listener threw (the hint goes on).
   * Default: written to stderr.
   */
  readonly onWarning?: (error: unknown) => void;
}

const DEFAULT_TIMEOUT_MS = 30_000;
/** Solana RPC's per-call maxima. */
const MAX_STATUSES_PER_CALL = 256;
const MAX_ACCOUNTS_PER_CALL = 100;
/** How long a rent-exempt minimum read is used (see minimumBalanceForRentExemption). */
const RENT_KEPT_MS = 10 * 60 * 1000;

const base64 = getBase64Decoder();

function warn(error: unknown): void {
  console.warn("[rpc-chain]", error instanceof Error ? error.message : error);
}

/** History is served at `confirmed` at the lowest (see the module doc). */
function historyCommitment(commitment: Commitment): Commitment {
  return commitment === "processed" ? "confirmed" : commitment;
}

const COMMITMENTS: readonly Commitment[] = ["processed", "confirmed", "finalized"];

/** `commitment` and every stronger one. */
function atOrAbove(commitment: Commitment): readonly Commitment[] {
  return COMMITMENTS.slice(COMMITMENTS.indexOf(commitment));
}

/** The node stayed behind a floor through the retry budget (rpc-retry.ts). */
function behind(error: unknown): boolean {
  const cause = error instanceof Error ? error.cause : undefined;
  return (
    (error instanceof RpcResponseError && error.code === MIN_CONTEXT_SLOT_NOT_REACHED) ||
    (cause instanceof RpcResponseError && cause.code === MIN_CONTEXT_SLOT_NOT_REACHED)
  );
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += size) out.push(items.slice(start, start + size));
  return out;
}

/**
 * Connects to `rpcUrl`/`wsUrl`: reads the genesis hash (ChainUnavailable when the node cannot be
 * reached) and returns the port. Subscriptions open their socket when first asked for.
 */
export async function connectRpcChain(options: RpcChainOptions): Promise<ChainPort> {
  const retry = { budgetMs: options.retryBudgetMs ?? DEFAULT_RETRY_BUDGET_MS };
  const rpc = createSolanaRpcFromTransport(
    createChainTransport(options.rpcUrl, options.timeoutMs ?? DEFAULT_TIMEOUT_MS, retry),
  );
  const subscriptions = createSolanaRpcSubscriptions(options.wsUrl);
  const onWarning = options.onWarning ?? warn;
  const genesisHash = text(await rpc.getGenesisHash().send(), "getGenesisHash");
  const followers = new Map<AbortController, Promise<void>>();

  /** Starts a followed subscription; returns its unsubscribe. */
  function follow<T>(
    open: (signal: AbortSignal) => Promise<AsyncIterable<T>>,
    onNotification: (notification: T) => void,
    onError: ((error: unknown) => void) | undefined,
  ): () => void {
    const abort = new AbortController();
    const loop = followSubscription(
      { open, onNotification, onError: onError ?? onWarning, onWarning },
      abort.signal,
    ).finally(() => followers.delete(abort));
    followers.set(abort, loop);
    return () => abort.abort();
  }

  const send = async (wire: Uint8Array, preflight: boolean) => {
    try {
      return await rpc
        .sendTransaction(base64.decode(wire) as Parameters<typeof rpc.sendTransaction>[0], {
          encoding: "base64",
          preflightCommitment: "processed",
          skipPreflight: !preflight,
        })
        .send();
    } catch (error) {
      throw submissionRejectionOf(error);
    }
  };

  // The highest context slot seen per commitment (see the module doc).
  const floors: Record<Commitment, bigint> = { processed: 0n, confirmed: 0n, finalized: 0n };
  const see = (commitment: Commitment, slot: bigint) => {
    if (slot > floors[commitment]) floors[commitment] = slot;
  };
  /**
   * A read at `commitment` answers from a slot at least as new as any seen at that commitment or a
   * stronger one (a finalized slot is also confirmed and processed): an indexer that asked for the
   * finalized slot must not then take a status from before it as "unknown".
   */
  const floorOf = (commitment: Commitment) =>
    atOrAbove(commitment).reduce((highest, level) => (floors[level] > highest ? floors[level] : highest), 0n);
  /** `read(minContextSlot)` at the floor of `commitment`; the floor is forgotten if the node stays behind. */
  const floored = async <T>(
    commitment: Commitment,
    read: (floor: { minContextSlot?: bigint }) => Promise<T>,
  ): Promise<T> => {
    const floor = floorOf(commitment);
    try {
      return await read(floor === 0n ? {} : { minContextSlot: floor });
    } catch (error) {
      if (behind(error) && floorOf(commitment) === floor) {
        for (const level of atOrAbove(commitment)) floors[level] = 0n;
      }
      throw error;
    }
  };
  /** Reads of a context: its slot raises the floor. */
  const contextOf = <T extends { context: { slot: bigint } }>(commitment: Commitment, answer: T): T => {
    see(commitment, u64(answer.context.slot, "context.slot"));
    return answer;
  };

  const rentBySize = new Map<number, { readonly at: number; readonly lamports: Promise<bigint> }>();

  /** Statuses in order, paged by the RPC maximum; every landed transaction is searched. */
  const signatureStatuses = async (ids: readonly string[]) => {
    const statuses: (SignatureStatus | null)[] = [];
    for (const chunk of chunks(ids, MAX_STATUSES_PER_CALL)) {
      // Statuses take no minContextSlot: an answer from behind the floor is asked again.
      const { value } = await floored("processed", ({ minContextSlot }) =>
        withRetry(async () => {
          const answer = await rpc
            .getSignatureStatuses(
              chunk.map((id) => signature(id)),
              { searchTransactionHistory: true },
            )
            .send();
          const slot = u64(answer.context.slot, "getSignatureStatuses.context.slot");
          if (minContextSlot !== undefined && slot < minContextSlot) {
            throw new RpcResponseError(
              MIN_CONTEXT_SLOT_NOT_REACHED,
              `signature statuses at slot ${slot}, behind slot ${minContextSlot} already seen`,
              null,
            );
          }
          see("processed", slot);
          return answer;
        }, retry),
      );
      statuses.push(
        ...value.map((status, index) => signatureStatusOf(status, `getSignatureStatuses[${index}]`)),
      );
    }
    return statuses;
  };

  return {
    programId: options.programId,
    usdgMint: options.usdgMint,
    genesisHash,

    async getSlot(commitment = "processed") {
      const slot = u64(
        await floored(commitment, (floor) => rpc.getSlot({ commitment, ...floor }).send()),
        "getSlot",
      );
      see(commitment, slot);
      return slot;
    },
    async getBlockHeight(commitment = "processed") {
      return u64(
        await floored(commitment, (floor) => rpc.getBlockHeight({ commitment, ...floor }).send()),
        "getBlockHeight",
      );
    },
    async getLatestBlockhash(commitment = "processed") {
      const { value } = contextOf(
        commitment,
        await floored(commitment, (floor) => rpc.getLatestBlockhash({ commitment, ...floor }).send()),
      );
      return {
        blockhash: text(value.blockhash, "getLatestBlockhash.blockhash"),
        lastValidBlockHeight: u64(value.lastValidBlockHeight, "getLatestBlockhash.lastValidBlockHeight"),
      };
    },
    async isBlockhashValid(hash, commitment = "processed") {
      // At the floor: a lagging node must not call a blockhash it has not seen yet expired.
      const { value } = contextOf(
        commitment,
        await floored(commitment, (floor) =>
          rpc.isBlockhashValid(blockhash(hash), { commitment, ...floor }).send(),
        ),
      );
      return value === true;
    },
    minimumBalanceForRentExemption(dataLength) {
      // Asked for the same few sizes on every confidential operation; a cluster's Rent changes
      // only with a feature activation, so an answer is kept for RENT_KEPT_MS.
      const now = Date.now();
      const kept = rentBySize.get(dataLength);
      if (kept !== undefined && now - kept.at < RENT_KEPT_MS) return kept.lamports;
      const lamports = rpc
        .getMinimumBalanceForRentExemption(BigInt(dataLength), { commitment: "processed" })
        .send()
        .then((found) => u64(found, "getMinimumBalanceForRentExemption"));
      rentBySize.set(dataLength, { at: now, lamports });
      lamports.catch(() => {
        if (rentBySize.get(dataLength)?.lamports === lamports) rentBySize.delete(dataLength);
      });
      return lamports;
    },

    async getAccount(account, commitment = "processed") {
      const { value } = contextOf(
        commitment,
        await floored(commitment, (floor) =>
          rpc.getAccountInfo(address(account), { encoding: "base64", commitment, ...floor }).send(),
        ),
      );
      return value === null ? null : accountRecordOf(account, value, "getAccountInfo.value");
    },
    async getMultipleAccounts(addresses, commitment = "processed") {
      const found: (AccountRecord | null)[] = [];
      for (const chunk of chunks(addresses, MAX_ACCOUNTS_PER_CALL)) {
        const { value } = contextOf(
          commitment,
          await floored(commitment, (floor) =>
            rpc
              .getMultipleAccounts(
                chunk.map((key) => address(key)),
                { encoding: "base64", commitment, ...floor },
              )
              .send(),
          ),
        );
        value.forEach((account, index) => {
          const key = chunk[index] as string;
          found.push(
            account === null ? null : accountRecordOf(key, account, `getMultipleAccounts[${index}]`),
          );
        });
      }
      return found;
    },
    async getProgramAccounts(programId, commitment = "processed") {
      const found = await rpc
        .getProgramAccounts(address(programId), { encoding: "base64", commitment })
        .send();
      return found.map((entry, index) => {
        const keyed = objectAt(entry, `getProgramAccounts[${index}]`);
        const key = text(keyed.pubkey, `getProgramAccounts[${index}].pubkey`);
        return accountRecordOf(key, keyed.account, `getProgramAccounts[${index}].account`);
      });
    },

    sendTransaction: (wire, sendOptions) => send(wire, sendOptions?.preflight === true),
    async simulateTransaction(wire, simulateOptions = {}) {
      const sigVerify = simulateOptions.sigVerify ?? false;
      const replaceRecentBlockhash = simulateOptions.replaceRecentBlockhash ?? false;
      if (sigVerify && replaceRecentBlockhash) {
        throw new Error("sigVerify may not be used with replaceRecentBlockhash");
      }
      try {
        const { value } = await rpc
          .simulateTransaction(base64.decode(wire) as Parameters<typeof rpc.sendTransaction>[0], {
            encoding: "base64",
            commitment: "processed",
            ...(sigVerify ? { sigVerify: true } : { replaceRecentBlockhash }),
            ...(simulateOptions.innerInstructions === true ? { innerInstructions: true } : {}),
          })
          .send();
        const outcome = simulationOf(value, "simulateTransaction.value");
        if (simulateOptions.innerInstructions !== true) return outcome;
        return { ...outcome, ...simulatedCallsOf(value, wire, "simulateTransaction.value") };
      } catch (error) {
        throw submissionRejectionOf(error);
      }
    },
    async requestAirdrop(recipient, amount) {
      try {
        return await rpc
          .requestAirdrop(address(recipient), lamports(amount), { commitment: "processed" })
          .send();
      } catch (error) {
        // A faucet that cannot make the transfer answers -32603 (agave and the localnet): nothing landed.
        if (error instanceof RpcResponseError && error.code === JSON_RPC_CODES.INTERNAL_ERROR) {
          throw new SubmissionRejected("preflight_failed", error.message);
        }
        throw error;
      }
    },

    async getSignatureStatus(id) {
      const [status] = await signatureStatuses([id]);
      return status ?? null;
    },
    getSignatureStatuses: signatureStatuses,
    async getTransaction(id, commitment = "confirmed") {
      const found = await rpc
        .getTransaction(signature(id), {
          encoding: "base64",
          maxSupportedTransactionVersion: 0,
          commitment: historyCommitment(commitment),
        })
        .send();
      return found === null ? null : transactionRecordOf(id, found);
    },
    async getSignaturesForAddress(account, page = {}) {
      const found = await rpc
        .getSignaturesForAddress(address(account), {
          commitment: historyCommitment(page.commitment ?? "processed") as "confirmed" | "finalized",
          ...(page.before === undefined ? {} : { before: signature(page.before) }),
          ...(page.until === undefined ? {} : { until: signature(page.until) }),
          ...(page.limit === undefined ? {} : { limit: page.limit }),
        })
        .send();
      return found.map((info, index) => signatureInfoOf(info, `getSignaturesForAddress[${index}]`));
    },

    onSlot(listener, onError) {
      return follow(
        (signal) => subscriptions.slotNotifications().subscribe({ abortSignal: signal }),
        (notification) => listener(u64(notification.slot, "slotNotification.slot")),
        onError,
      );
    },
    onLogs(account, commitment, listener, onError) {
      return follow(
        (signal) =>
          subscriptions
            .logsNotifications({ mentions: [address(account)] }, { commitment })
            .subscribe({ abortSignal: signal }),
        ({ context, value }) => {
          const notification: LogsNotification = {
            signature: text(value.signature, "logsNotification.signature"),
            slot: u64(context.slot, "logsNotification.context.slot"),
            err: toTransactionErrorJson(value.err),
            logs: value.logs === null ? [] : [...value.logs],
          };
          listener(notification);
        },
        onError,
      );
    },

    async close() {
      const loops = [...followers.values()];
      for (const abort of [...followers.keys()]) abort.abort();
      await Promise.all(loops);
    },
  };
}
