/**
 * The indexer's HTTP surface: `GET /health` for probes (200 while passes succeed, 503 with the
 * reason when the last one failed; stand-bys answer 200 with `leader: false`) and, when Helius is
 * configured, the authenticated receiver for its raw webhooks.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express, { type Router } from "express";
import type { RunningIndexer } from "./indexer";

export interface IndexerServer {
  readonly url: string;
  close(): Promise<void>;
}

export async function startIndexerServer(
  indexer: RunningIndexer,
  options: { readonly host: string; readonly port: number; readonly routers?: readonly Router[] },
): Promise<IndexerServer> {
  const app = express();
  app.disable("x-powered-by");
  app.get("/health", async (_request, response) => {
    const status = await indexer.status();
    response.status(status.lastError === null ? 200 : 503).json({
      status: status.lastError === null ? "ok" : "failing",
      leader: status.leader,
      checkpoint:
        status.checkpoint === null
          ? null
          : { slot: Number(status.checkpoint.slot), signature: status.checkpoint.signature },
      indexed: status.indexed,
      last_pass_at: status.lastPassAt,
      last_error: status.lastError,
    });
  });
  for (const router of options.routers ?? []) app.use(router);
  app.use((_request, response) => {
    response.status(404).json({ error: { code: "not_found", message: "no such route on the indexer" } });
  });
  const server = await new Promise<Server>((resolve, reject) => {
    const listening = app.listen(options.port, options.host, (error?: Error) =>
      error ? reject(error) : resolve(listening),
    );
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
