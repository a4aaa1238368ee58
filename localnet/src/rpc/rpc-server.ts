/**
 * Solana JSON-RPC over HTTP (node:http): POST a JSON-RPC 2.0 request or batch to any path; GET
 * /health answers "ok" like a validator. A browser request from an origin not explicitly allowed is
 * refused (403) before it runs and no CORS header is ever sent to it (allowed-origins.ts); an
 * allowed origin (a local dashboard) gets CORS headers naming it.
 *
 * Bodies are capped (agave's 50 KiB by default) and an oversized body is answered 413 with a JSON-RPC
 * error as soon as the cap is crossed, without buffering the rest. The server binds to the host it
 * is given; startLocalnet only ever passes loopback.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { originVerdict } from "./allowed-origins";
import { stringifyJson } from "./json-bigint";
import { dispatchJsonRpc } from "./json-rpc-dispatch";
import { invalidRequest, RpcError, RpcErrorCode } from "./json-rpc-errors";
import type { ListeningServer, ListeningServerOptions } from "./listening-server";
import { rpcMethods } from "./methods/index";
import type { MethodContext } from "./rpc-context";

/** How long an idle keep-alive connection stays open (see startRpcServer). */
const KEEP_ALIVE_MS = 120_000;

/** Agave's MAX_REQUEST_BODY_SIZE. */
export const DEFAULT_MAX_BODY_BYTES = 50 * 1024;

export interface RpcServerOptions extends ListeningServerOptions {
  readonly context: MethodContext;
  readonly maxBodyBytes?: number;
}

export type RpcServer = ListeningServer;

/** Sent only to an allowed origin, with `access-control-allow-origin` naming it. */
const CORS_HEADERS = {
  "access-control-allow-methods": "POST, GET, OPTIONS",
  "access-control-allow-headers": "content-type, solana-client",
  "access-control-max-age": "86400",
};

function send(res: ServerResponse, status: number, body: string, contentType = "application/json"): void {
  if (res.headersSent) return;
  res.writeHead(status, {
    "content-type": contentType,
    "content-length": Buffer.byteLength(body),
  });
  res.end(body);
}

function errorBody(error: RpcError): string {
  return stringifyJson({ jsonrpc: "2.0", error: error.toJson(), id: null });
}

function tooLarge(res: ServerResponse, limit: number): void {
  send(res, 413, errorBody(invalidRequest(`request body exceeds the ${limit}-byte limit`)));
}

function handle(
  req: IncomingMessage,
  res: ServerResponse,
  options: RpcServerOptions,
  allowed: ReadonlySet<string>,
  limit: number,
): void {
  // Answers differ by Origin, so caches must key on it.
  res.setHeader("vary", "Origin");
  const verdict = originVerdict(allowed, req.headers.origin);
  if (verdict === "refused") {
    req.resume();
    send(
      res,
      403,
      errorBody(invalidRequest("this origin may not call the localnet (LOCALNET_ALLOWED_ORIGINS)")),
    );
    return;
  }
  if (verdict === "allowed") {
    res.setHeader("access-control-allow-origin", req.headers.origin as string);
    for (const [name, value] of Object.entries(CORS_HEADERS)) res.setHeader(name, value);
  }
  if (req.method === "OPTIONS") {
    res.writeHead(204).end();
    return;
  }
  if (req.method === "GET" && req.url?.split("?")[0] === "/health") {
    send(res, 200, "ok", "text/plain");
    return;
  }
  if (req.method !== "POST") {
    res.setHeader("allow", "POST, OPTIONS");
    send(
      res,
      405,
      errorBody(
        new RpcError(
          RpcErrorCode.INVALID_REQUEST,
          "Used HTTP Method is not allowed. POST or OPTIONS is required",
        ),
      ),
    );
    return;
  }
  const declared = Number(req.headers["content-length"] ?? 0);
  if (declared > limit) {
    tooLarge(res, limit);
    req.resume();
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  let rejected = false;
  req.on("data", (chunk: Buffer) => {
    if (rejected) return;
    size += chunk.length;
    if (size > limit) {
      rejected = true;
      chunks.length = 0;
      tooLarge(res, limit);
      return;
    }
    chunks.push(chunk);
  });
  req.on("end", () => {
    if (rejected) return;
    const body = Buffer.concat(chunks).toString("utf8");
    const response = dispatchJsonRpc(body, {
      resolve: (method) => {
        const handler = rpcMethods.get(method);
        return handler && ((params) => handler(params, options.context));
      },
      onInternalError: options.onInternalError,
    });
    send(res, 200, response ?? "");
  });
  req.on("error", () => res.destroy());
}

/** Starts the HTTP JSON-RPC server; resolves once it listens (port 0 picks a free port). */
export function startRpcServer(options: RpcServerOptions): Promise<RpcServer> {
  const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const allowed = new Set(options.allowedOrigins ?? []);
  const server: Server = createServer((req, res) => {
    try {
      handle(req, res, options, allowed, limit);
    } catch (error) {
      options.onInternalError?.(error, "<http>");
      send(res, 500, errorBody(new RpcError(RpcErrorCode.INTERNAL_ERROR, "Internal error")));
    }
  });
  // A client may spend many seconds between two requests on one pooled connection (a prover's
  // event loop is busy the whole time, so it cannot notice the server closing it). With node's 5 s
  // default the server closes the idle socket under it and its next request fails "other side
  // closed"; a validator's RPC keeps idle connections far longer, and so does this one.
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  // A malformed HTTP request gets a 400 and a closed socket instead of an unhandled error.
  server.on("clientError", (_error, socket) => {
    if (socket.writable) socket.end("HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n");
    else socket.destroy();
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://${options.host}:${port}`,
        port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
