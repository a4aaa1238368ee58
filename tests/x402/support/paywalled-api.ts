/**
 * A resource server a merchant would write: Express with `@x402/express`'s `paymentMiddleware`,
 * `@x402/svm`'s exact server scheme, and a facilitator reached over HTTP (`HTTPFacilitatorClient`).
 * Each route's price is an amount of the cluster's USDG to `payTo`, with the memo it asks for; the
 * handler counts what it served, so a suite can tell a resource served once from one served twice.
 * The facilitator is the official one, or cpay's (`/v1/x402`, the merchant's API key its bearer).
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { HTTPFacilitatorClient } from "@x402/core/server";
import { paymentMiddleware, x402ResourceServer } from "@x402/express";
import { ExactSvmScheme } from "@x402/svm/exact/server";
import express from "express";
import { merchantBearer } from "./cpay-facilitator";
import { closeServer, listen } from "./official-facilitator";

export interface PricedRoute {
  /** Express path, served on GET. */
  readonly path: string;
  /** Base units of USDG. */
  readonly amount: bigint;
  readonly payTo: string;
  readonly memo?: string;
  /** The route's network, when not the API's. */
  readonly network?: `solana:${string}`;
}

export interface PaywalledApi {
  readonly url: string;
  /** How many times each path's handler ran (each run is a resource served). */
  readonly served: Map<string, number>;
  close(): Promise<void>;
}

export async function startPaywalledApi(input: {
  readonly facilitatorUrl: string;
  /** The merchant's API key, sent as the bearer to a facilitator that wants one (cpay's). */
  readonly facilitatorKey?: string;
  readonly network: `solana:${string}`;
  readonly usdgMint: string;
  readonly routes: readonly PricedRoute[];
}): Promise<PaywalledApi> {
  const key = input.facilitatorKey;
  const resourceServer = new x402ResourceServer(
    new HTTPFacilitatorClient({
      url: input.facilitatorUrl,
      ...(key === undefined ? {} : { createAuthHeaders: async () => merchantBearer(key) }),
    }),
  );
  for (const network of new Set([input.network, ...input.routes.flatMap((route) => route.network ?? [])])) {
    resourceServer.register(network, new ExactSvmScheme());
  }
  const routes = Object.fromEntries(
    input.routes.map((route) => [
      `GET ${route.path}`,
      {
        accepts: {
          scheme: "exact",
          network: route.network ?? input.network,
          payTo: route.payTo,
          price: {
            amount: route.amount.toString(),
            asset: input.usdgMint,
            extra: route.memo === undefined ? {} : { memo: route.memo },
          },
        },
        description: `the report at ${route.path}`,
        mimeType: "application/json",
      },
    ]),
  );
  const served = new Map<string, number>();
  const app = express();
  app.use(paymentMiddleware(routes, resourceServer));
  for (const route of input.routes) {
    app.get(route.path, (_request, response) => {
      served.set(route.path, (served.get(route.path) ?? 0) + 1);
      response.json({ report: `paid content of ${route.path}` });
    });
  }
  const server: Server = await listen(app);
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    served,
    close: () => closeServer(server),
  };
}
