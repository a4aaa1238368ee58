/**
 * A webhook endpoint for the suites, on a free loopback port (the API under test runs with
 * WEBHOOKS_ALLOW_LOCAL=1): each delivery, read whole (path, headers, raw body), goes to
 * `onDelivery`, and the endpoint answers once that has settled (a slow handler makes a slow
 * endpoint) with the status `statusOf` gives, 200 by default.
 */
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface WebhookDelivery {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

export interface WebhookEndpoint {
  /** `http://127.0.0.1:<port>`: subscriptions add their own path. */
  readonly url: string;
  close(): Promise<void>;
}

export async function startWebhookEndpoint(options: {
  readonly onDelivery: (delivery: WebhookDelivery) => void | Promise<void>;
  readonly statusOf?: (delivery: WebhookDelivery) => number;
}): Promise<WebhookEndpoint> {
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => {
      body += chunk;
    });
    request.on("end", async () => {
      const delivery = { path: request.url ?? "", headers: request.headers, body };
      await options.onDelivery(delivery);
      response.statusCode = options.statusOf?.(delivery) ?? 200;
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
