/**
 * A merchant's paywalled API: `GET /report` costs a price in USDG, paid with x402 v2 (scheme
 * `exact`, Solana) into the merchant's cpay account. The middleware is the official
 * `@x402/express`; the facilitator that verifies and settles each payment is cpay's own
 * (`<CPAY_API_URL>/v1/x402`), reached with `HTTPFacilitatorClient` and the merchant's API key as its
 * bearer. cpay's fee reserve pays each payment's fee (charged to the merchant's reserve budget), so
 * neither the merchant nor the payer needs SOL, and each settled payment is a received transfer in
 * the merchant's records with its `transfer.confirmed` webhook.
 *
 * Settings (environment): CPAY_API_URL, CPAY_API_KEY (the merchant's), USDG_MINT (the cluster's
 * USDG), PRICE_UNITS (USDG base units, default 10000 = 0.01 USDG), PORT (default 4021, 0 for any),
 * X402_NETWORK (default: the first network the facilitator settles on). Prints one JSON line when
 * it listens.
 */
import type { AddressInfo } from "node:net";
import { HTTPFacilitatorClient } from "@x402/core/server";
import { paymentMiddleware, x402ResourceServer } from "@x402/express";
import { ExactSvmScheme } from "@x402/svm/exact/server";
import express from "express";

function setting(name: string, fallback?: string): string {
  const value = process.env[name] ?? fallback;
  if (value === undefined || value === "") throw new Error(`${name} is not set`);
  return value;
}

const apiUrl = setting("CPAY_API_URL").replace(/\/+$/, "");
const apiKey = setting("CPAY_API_KEY");
const usdgMint = setting("USDG_MINT");
const price = setting("PRICE_UNITS", "10000");
const port = Number(setting("PORT", "4021"));

/** The merchant's key on every facilitator call, in the per-path form the client asks for. */
const bearer = { Authorization: `Bearer ${apiKey}` };
const facilitator = new HTTPFacilitatorClient({
  url: `${apiUrl}/v1/x402`,
  createAuthHeaders: async () => ({ verify: bearer, settle: bearer, supported: bearer }),
});

// Where payments go: the merchant's own account (cpay settles payments to the key's account only).
const me = await fetch(`${apiUrl}/v1/accounts/me`, { headers: bearer });
if (!me.ok) throw new Error(`GET /v1/accounts/me answered ${me.status}: ${await me.text()}`);
const payTo = ((await me.json()) as { public_key: string }).public_key;
const supported = await facilitator.getSupported();
const network = (process.env.X402_NETWORK ?? supported.kinds[0]?.network) as `${string}:${string}`;

const resourceServer = new x402ResourceServer(facilitator).register(network, new ExactSvmScheme());
const app = express();
app.use(
  paymentMiddleware(
    {
      "GET /report": {
        accepts: { scheme: "exact", network, payTo, price: { amount: price, asset: usdgMint, extra: {} } },
        description: "today's report",
        mimeType: "application/json",
      },
    },
    resourceServer,
  ),
);
app.get("/report", (_request, response) => {
  response.json({ report: "today's figures", paid: true });
});

const server = app.listen(port, "127.0.0.1", () => {
  const { port: listening } = server.address() as AddressInfo;
  console.log(JSON.stringify({ listening: `http://127.0.0.1:${listening}`, network, payTo, price }));
});
