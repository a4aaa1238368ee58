/**
 * The indexer's chain over Solana JSON-RPC + PubSub (any validator or provider, and the localnet).
 *
 * Reads are single RPC calls at `confirmed` (the indexer's write commitment) with their answers
 * validated and normalised at this boundary: slots and block times as bigint, transaction errors as
 * plain JSON (kit upcasts every number in a response to bigint, `{ Custom: 6001n }`, which neither
 * equals the embedded cluster's `{ Custom: 6001 }` nor survives JSON.stringify).
 *
 * `watch` is a hint, never the source of truth (see indexer-chain.ts): a `logsSubscribe` on the
 * program says "look now" as soon as a transaction confirms, and a poll timer says it every `pollMs`
 * regardless, so a socket that drops, or a provider that silently stops notifying, only costs
 * latency. A subscription that ends or fails is reported and re-opened with backoff until the
 * watcher is unsubscribed.
 */
import type { TransactionErrorJson } from "@cpay/sdk/cluster";
import { tokenAccountOwnerOf } from "@cpay/sdk/confidential";
import {
  address,
  createSolanaRpc,
  createSolanaRpcSubscriptions,
  getBase64Encoder,
  signature,
} from "@solana/kit";
import type { ChainTransaction, IndexerChain, ProgramSignature, SignatureState } from "./indexer-chain";

export interface RpcChainOptions {
  /** HTTP JSON-RPC endpoint. */
  readonly rpcUrl: string;
  /** WebSocket PubSub endpoint. */
  readonly wsUrl: string;
  readonly programId: string;
  readonly usdgMint: string;
  /** Period of the poll that backs up the log subscription; default 1000 ms. */
  readonly pollMs?: number;
  /**
   * Failures of the live path (subscription ended or failed, an `onActivity` that threw); indexing
   * goes on through the poll. Default: logged to stderr.
   */
  readonly onError?: (error: unknown) => void;
}

/** getSignatureStatuses refuses more than 256 signatures per call. */
const MAX_STATUSES_PER_CALL = 256;
const DEFAULT_POLL_MS = 1000;
const FIRST_RETRY_MS = 250;
const MAX_RETRY_MS = 5000;

function logError(error: unknown): void {
  console.error("[rpc-chain]", error);
}

/** RPC's transaction error with kit's bigints turned back into the numbers on the wire. */
function toTransactionErrorJson(err: unknown): TransactionErrorJson | null {
  if (err === null || err === undefined) return null;
  return toPlainJson(err) as TransactionErrorJson;
}

function toPlainJson(value: unknown): unknown {
  if (typeof value === "bigint") return Number(value);
  if (Array.isArray(value)) return value.map(toPlainJson);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, toPlainJson(item)]));
  }
  return value;
}

/** Resolves after `ms`, or at once when `signal` aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}

/**
 * An IndexerChain reading `rpcUrl` and watching `wsUrl` (see the module doc). `close` ends every
 * watcher and resolves once their subscription loops have returned.
 */
export function createRpcChain(options: RpcChainOptions): IndexerChain {
  const rpc = createSolanaRpc(options.rpcUrl);
  const subscriptions = createSolanaRpcSubscriptions(options.wsUrl);
  const programAddress = address(options.programId);
  const pollMs = options.pollMs ?? DEFAULT_POLL_MS;
  const onError = options.onError ?? logError;
  const report = (error: unknown) => {
    try {
      onError(error);
    } catch {
      // A failing error handler must not turn into an unhandled rejection of the subscription loop.
    }
  };
  const watchers = new Map<() => void, Promise<void>>();
  let closed = false;

  /** An account at `confirmed`: its program owner and bytes, or null when there is none. */
  async function readAccount(account: string): Promise<{ owner: string; data: Uint8Array } | null> {
    const { value } = await rpc
      .getAccountInfo(address(account), { encoding: "base64", commitment: "confirmed" })
      .send();
    if (value === null) return null;
    return { owner: value.owner, data: new Uint8Array(getBase64Encoder().encode(value.data[0])) };
  }

  /** Follows the program's logs until `signal` aborts, re-subscribing with backoff after each end. */
  async function followLogs(signal: AbortSignal, notify: () => void): Promise<void> {
    let retryMs = FIRST_RETRY_MS;
    while (!signal.aborted) {
      try {
        const notifications = await subscriptions
          .logsNotifications({ mentions: [programAddress] }, { commitment: "confirmed" })
          .subscribe({ abortSignal: signal });
        // The socket works again: a later drop starts the backoff over.
        retryMs = FIRST_RETRY_MS;
        for await (const _ of notifications) notify();
        if (signal.aborted) return;
        report(new Error("the program logs subscription ended; re-subscribing"));
      } catch (error) {
        if (signal.aborted) return;
        report(error);
      }
      await pause(retryMs, signal);
      retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
    }
  }

  return {
    programId: options.programId,
    usdgMint: options.usdgMint,

    async signaturesForProgram(page) {
      const found = await rpc
        .getSignaturesForAddress(programAddress, {
          commitment: "confirmed",
          before: page.before === undefined ? undefined : signature(page.before),
          until: page.until === undefined ? undefined : signature(page.until),
          limit: page.limit,
        })
        .send();
      return found.map(
        (info): ProgramSignature => ({
          signature: info.signature,
          slot: BigInt(info.slot),
          err: toTransactionErrorJson(info.err),
        }),
      );
    },

    async transaction(id) {
      const found = await rpc
        .getTransaction(signature(id), {
          commitment: "confirmed",
          maxSupportedTransactionVersion: 0,
          encoding: "json",
        })
        .send();
      if (found === null) return null;
      return {
        signature: id,
        slot: BigInt(found.slot),
        // Solana may not know a block's time (null); 0 keeps the field total rather than optional.
        blockTime: BigInt(found.blockTime ?? 0),
        err: toTransactionErrorJson(found.meta?.err),
        logs: found.meta?.logMessages ?? [],
      } satisfies ChainTransaction;
    },

    async signatureStates(ids) {
      const states: (SignatureState | null)[] = [];
      for (let start = 0; start < ids.length; start += MAX_STATUSES_PER_CALL) {
        const chunk = ids.slice(start, start + MAX_STATUSES_PER_CALL).map((id) => signature(id));
        const { value } = await rpc.getSignatureStatuses(chunk, { searchTransactionHistory: true }).send();
        for (const status of value) {
          states.push(
            status === null
              ? null
              : {
                  slot: BigInt(status.slot),
                  // Nodes before 1.5 omit the status; `confirmations: null` has always meant rooted.
                  confirmationStatus:
                    status.confirmationStatus ?? (status.confirmations === null ? "finalized" : "processed"),
                  err: toTransactionErrorJson(status.err),
                },
          );
        }
      }
      return states;
    },

    async finalizedSlot() {
      return BigInt(await rpc.getSlot({ commitment: "finalized" }).send());
    },

    async programAccountData(account) {
      const found = await readAccount(account);
      return found !== null && found.owner === options.programId ? found.data : null;
    },

    async tokenAccountOwner(tokenAccount) {
      const found = await readAccount(tokenAccount);
      return found === null ? null : tokenAccountOwnerOf(found.owner, found.data);
    },

    watch(onActivity) {
      if (closed) throw new Error("the rpc chain is closed");
      const abort = new AbortController();
      // Deferred to a microtask so a throwing or rejecting (async) onActivity is reported, never
      // escapes; checked again there so nothing is delivered after unsubscribe.
      const notify = () => {
        Promise.resolve()
          .then(() => {
            if (!abort.signal.aborted) return onActivity();
          })
          .catch(report);
      };
      const timer = setInterval(notify, pollMs);
      const unsubscribe = () => {
        abort.abort();
        clearInterval(timer);
        watchers.delete(unsubscribe);
      };
      watchers.set(unsubscribe, followLogs(abort.signal, notify));
      return unsubscribe;
    },

    async close() {
      closed = true;
      const loops = [...watchers.values()];
      for (const unsubscribe of [...watchers.keys()]) unsubscribe();
      await Promise.all(loops);
    },
  };
}
