/** What the localnet's two servers (JSON-RPC over HTTP, PubSub over WebSocket) take and give alike. */

export interface ListeningServerOptions {
  /** The address to bind; startLocalnet only ever passes loopback. */
  readonly host: string;
  /** 0 picks a free port. */
  readonly port: number;
  /** Web origins whose pages may call it; none by default (allowed-origins.ts). */
  readonly allowedOrigins?: readonly string[];
  /** Errors that are bugs of the localnet (answered -32603). */
  readonly onInternalError?: (error: unknown, method: string) => void;
}

export interface ListeningServer {
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}
