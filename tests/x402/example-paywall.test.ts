/**
 * examples/x402-paywall as a merchant runs it: its own process, with only its documented settings
 * (the service's URL, the merchant's API key, the USDG mint, a price, the network), selling
 * `GET /report` through cpay's facilitator. A wallet pays it with the official `@x402/svm` client
 * (the localnet standing in for devnet, as in wallet-pays-cpay-facilitator.test.ts): served after
 * one payment, the merchant credited exactly the price.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { generateKeyPairSigner } from "@solana/kit";
import { x402Client } from "@x402/core/client";
import { wrapFetchWithPayment } from "@x402/fetch";
import { SOLANA_DEVNET_CAIP2 } from "@x402/svm";
import { ExactSvmScheme } from "@x402/svm/exact/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publicUsdg } from "../api/support/held-transfer";
import { type ApiWorld, startApiWorld, usdg, type WorldAccount } from "../support/api-world";

const REPO = resolve(import.meta.dirname, "../..");
const EXAMPLE = join(REPO, "examples/x402-paywall/src/main.ts");
const PRICE = 20_000n;

let world: ApiWorld;
let merchant: WorldAccount;
let example: ChildProcess | undefined;
let exampleUrl: string;

beforeAll(async () => {
  world = await startApiWorld({ chain: "rpc", env: { X402_TEST_NETWORK_ALIASES: SOLANA_DEVNET_CAIP2 } });
  merchant = await world.account("merchant", { type: "business" });
  const child = spawn(process.execPath, ["--import", "tsx", EXAMPLE], {
    cwd: REPO,
    env: {
      PATH: process.env.PATH ?? "",
      CPAY_API_URL: world.url,
      CPAY_API_KEY: merchant.key.value,
      USDG_MINT: world.chain.usdgMint,
      PRICE_UNITS: PRICE.toString(),
      PORT: "0",
      X402_NETWORK: SOLANA_DEVNET_CAIP2,
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  example = child;
  const [line] = await new Promise<string[]>((done, fail) => {
    child.once("exit", (code) => fail(new Error(`the example exited (${code}) before listening`)));
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).once("line", (first) => done([first]));
  });
  const started = JSON.parse(line as string) as { listening: string; payTo: string; network: string };
  expect(started).toMatchObject({ payTo: merchant.account.publicKey, network: SOLANA_DEVNET_CAIP2 });
  exampleUrl = started.listening;
}, 300_000);

afterAll(async () => {
  if (example !== undefined && example.exitCode === null) {
    const exited = new Promise((done) => example?.once("exit", done));
    example.kill("SIGTERM");
    await exited;
  }
  await world?.close();
});

describe("examples/x402-paywall", () => {
  it("Given the example selling /report through cpay's facilitator, When a wallet fetches it with the official client, Then it is served after one payment and the merchant gains exactly the price", async () => {
    const wallet = await generateKeyPairSigner();
    await world.faucet.mintUsdgToOwner(wallet.address, usdg(1));
    const client = new x402Client()
      .register(
        SOLANA_DEVNET_CAIP2,
        new ExactSvmScheme(wallet, { rpcUrl: world.localnet?.rpcUrl() as string }),
      )
      .setSpendControls(false);
    const before = await publicUsdg(world, merchant.account.publicKey);
    const unpaid = await fetch(`${exampleUrl}/report`);

    const paid = await wrapFetchWithPayment(fetch, client)(`${exampleUrl}/report`);

    expect(unpaid.status).toBe(402);
    expect(paid.status).toBe(200);
    expect(await paid.json()).toEqual({ report: "today's figures", paid: true });
    expect((await publicUsdg(world, merchant.account.publicKey)) - before).toBe(PRICE);
  });
});
