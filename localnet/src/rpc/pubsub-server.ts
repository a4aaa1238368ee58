/**
 * Solana PubSub over WebSocket (ws): JSON-RPC 2.0 messages in, responses and notifications out.
 *
 * Each connection gets the hub's methods bound to it, so its subscriptions die with it. Every socket
 * has an error listener (ws emits 'error' on bad frames, which would otherwise crash the process), a
 * frame-size cap, and a cap on unsent data: a client that stops reading is disconnected rather than
 * allowed to grow the server's memory without bound.
 */
import type { AddressInfo } from "node:net";
import { type WebSocket, WebSocketServer } from "ws";
import type { ClusterPort } from "../cluster/cluster-port";
import { originVerdict } from "./allowed-origins";
import { dispatchJsonRpc } from "./json-rpc-dispatch";
import type { ListeningServer, ListeningServerOptions } from "./listening-server";
import { createSubscriptionHub, type SubscriberConnection } from "./subscriptions";

const MAX_MESSAGE_BYTES = 1024 * 1024;
const MAX_BUFFERED_BYTES = 16 * 1024 * 1024;

export interface PubSubServerOptions extends ListeningServerOptions {
  readonly cluster: ClusterPort;
}

export type PubSubServer = ListeningServer;

function connectionFor(socket: WebSocket): SubscriberConnection {
  return {
    send(text) {
      if (socket.readyState !== socket.OPEN) return;
      if (socket.bufferedAmount > MAX_BUFFERED_BYTES) {
        socket.terminate();
        return;
      }
      socket.send(text);
    },
  };
}

/** Starts the WebSocket PubSub server; resolves once it listens (port 0 picks a free port). */
export function startPubSubServer(options: PubSubServerOptions): Promise<PubSubServer> {
  const hub = createSubscriptionHub(options.cluster, (error) => options.onInternalError?.(error, "<notify>"));
  const allowed = new Set(options.allowedOrigins ?? []);
  const wss = new WebSocketServer({
    host: options.host,
    port: options.port,
    maxPayload: MAX_MESSAGE_BYTES,
    // Browsers apply no CORS to WebSockets: a page's handshake carries its Origin, checked here.
    verifyClient: (info, done) =>
      originVerdict(allowed, info.req.headers.origin) === "refused"
        ? done(false, 403, "this origin may not call the localnet")
        : done(true),
  });

  wss.on("connection", (socket) => {
    const connection = connectionFor(socket);
    const resolve = hub.methodsFor(connection);
    socket.on("error", () => socket.terminate());
    socket.on("close", () => hub.disconnect(connection));
    socket.on("message", (data, isBinary) => {
      const text = isBinary
        ? ""
        : Array.isArray(data)
          ? Buffer.concat(data).toString("utf8")
          : data.toString();
      const response = dispatchJsonRpc(text, { resolve, onInternalError: options.onInternalError });
      if (response !== null) connection.send(response);
    });
  });

  return new Promise((resolveStart, reject) => {
    wss.once("error", reject);
    wss.once("listening", () => {
      wss.off("error", reject);
      wss.on("error", (error) => options.onInternalError?.(error, "<ws-server>"));
      const { port } = wss.address() as AddressInfo;
      resolveStart({
        url: `ws://${options.host}:${port}`,
        port,
        close: () =>
          new Promise<void>((done) => {
            hub.close();
            for (const client of wss.clients) client.terminate();
            wss.close(() => done());
          }),
      });
    });
  });
}
