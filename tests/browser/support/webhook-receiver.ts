/**
 * The endpoint the dashboard's webhook points at, in the global setup's process: it answers 500
 * (a failed delivery, logged by the service) until a test tells it to heal, then 200. Tests steer
 * it over HTTP (`POST /control/heal`, `POST /control/fail`) because they run in worker processes;
 * `GET /control` says how many deliveries it refused and accepted.
 */
import { createServer, type Server } from "node:http";

export interface WebhookReceiver {
  /** The delivery URL, `http://127.0.0.1:<port>/hook` (the API is started with WEBHOOKS_ALLOW_LOCAL=1). */
  readonly url: string;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  let healthy = false;
  const counts = { refused: 0, accepted: 0 };
  const server: Server = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      const path = request.url ?? "";
      if (path === "/hook" && request.method === "POST") {
        if (healthy) counts.accepted += 1;
        else counts.refused += 1;
        response.writeHead(healthy ? 200 : 500).end();
        return;
      }
      if (path === "/control/heal" || path === "/control/fail") healthy = path === "/control/heal";
      if (path.startsWith("/control")) {
        response
          .writeHead(200, { "content-type": "application/json" })
          .end(JSON.stringify({ healthy, ...counts }));
        return;
      }
      response.writeHead(404).end();
    });
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("the webhook receiver has no port");
  return {
    url: `http://127.0.0.1:${address.port}/hook`,
    close: () => new Promise((done) => server.close(() => done())),
  };
}

/** Steers the receiver from a test (`heal`: answer 200 from now on; `fail`: 500). */
export async function steerReceiver(hookUrl: string, mode: "heal" | "fail" | "status") {
  const control = new URL(mode === "status" ? "/control" : `/control/${mode}`, hookUrl);
  const response = await fetch(control, { method: "POST" });
  return (await response.json()) as { healthy: boolean; refused: number; accepted: number };
}
