/**
 * startLocalnet: serves a ClusterPort as a Solana node would, JSON-RPC over HTTP plus PubSub over
 * WebSocket, on the validator's usual ports (8899/8900) unless told otherwise.
 *
 * The localnet exists for local development and tests, and answers airdrops to anyone who asks, so
 * it refuses to bind anything but a loopback address. Port 0 picks free ports (what tests use).
 */
import type { ClusterPort } from "../cluster/cluster-port";
import type { TestClock } from "./methods/test-clock";
import { startPubSubServer } from "./pubsub-server";
import { startRpcServer } from "./rpc-server";

export interface LocalnetOptions {
  readonly cluster: ClusterPort;
  /**
   * The cluster's clock, for the test-only `localnet_*` methods (methods/test-clock.ts); without it
   * they are refused. The localnet process passes its cluster's clock.
   */
  readonly testClock?: TestClock;
  /** HTTP JSON-RPC port; default 8899. */
  readonly rpcPort?: number;
  /** WebSocket PubSub port; default 8900. */
  readonly wsPort?: number;
  /** Loopback address to bind; default 127.0.0.1. */
  readonly host?: string;
  /** HTTP body limit in bytes; default 50 KiB (agave's). */
  readonly maxBodyBytes?: number;
  /**
   * Web origins whose pages may call it (a local dashboard, e.g. `http://localhost:5173`); none by
   * default, so no web page can drive the chain. See allowed-origins.ts.
   */
  readonly allowedOrigins?: readonly string[];
  /** Errors that are bugs of the localnet (answered -32603); default logs them to stderr. */
  readonly onInternalError?: (error: unknown, method: string) => void;
}

export interface Localnet {
  readonly rpcUrl: string;
  readonly wsUrl: string;
  readonly rpcPort: number;
  readonly wsPort: number;
  /** Stops both servers and drops every connection and subscription. Idempotent. */
  close(): Promise<void>;
}

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "::1"]);

function logInternalError(error: unknown, method: string): void {
  console.error(`[localnet] internal error in ${method}:`, error);
}

export async function startLocalnet(options: LocalnetOptions): Promise<Localnet> {
  const host = options.host ?? "127.0.0.1";
  if (!LOOPBACK_HOSTS.has(host)) {
    throw new Error(`localnet only binds loopback addresses (127.0.0.1, ::1, localhost), not ${host}`);
  }
  const onInternalError = options.onInternalError ?? logInternalError;
  const rpc = await startRpcServer({
    context: {
      cluster: options.cluster,
      ...(options.testClock === undefined ? {} : { testClock: options.testClock }),
    },
    host,
    port: options.rpcPort ?? 8899,
    maxBodyBytes: options.maxBodyBytes,
    ...(options.allowedOrigins === undefined ? {} : { allowedOrigins: options.allowedOrigins }),
    onInternalError,
  });
  let pubsub: Awaited<ReturnType<typeof startPubSubServer>>;
  try {
    pubsub = await startPubSubServer({
      cluster: options.cluster,
      host,
      port: options.wsPort ?? 8900,
      ...(options.allowedOrigins === undefined ? {} : { allowedOrigins: options.allowedOrigins }),
      onInternalError,
    });
  } catch (error) {
    await rpc.close();
    throw error;
  }
  let closing: Promise<void> | null = null;
  return {
    rpcUrl: rpc.url,
    wsUrl: pubsub.url,
    rpcPort: rpc.port,
    wsPort: pubsub.port,
    close() {
      closing ??= Promise.all([rpc.close(), pubsub.close()]).then(() => undefined);
      return closing;
    },
  };
}
