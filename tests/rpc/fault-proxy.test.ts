import { signTransactionToWire } from "@cpay/sdk/chain";
import { generateKeyPairSigner, lamports } from "@solana/kit";
import { getTransferSolInstruction } from "@solana-program/system";
import { describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { proxiedLocalnetSuite } from "../support/proxied-localnet";

// 50 ms slots: a blockhash lives 7.5 s, so one read valid a moment ago is still valid on a loaded machine.
const given = proxiedLocalnetSuite(7);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function call(method: string, params: unknown[] = []): Promise<Response> {
  return fetch(given.proxy.rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
}

async function result<T>(method: string, params: unknown[] = []): Promise<T> {
  const body = (await (await call(method, params)).json()) as { result?: T; error?: unknown };
  if (body.result === undefined) throw new Error(`${method}: ${JSON.stringify(body.error)}`);
  return body.result;
}

/** A signed 1-lamport transfer from a funded key, with the blockhash it was signed with. */
async function signedTransfer() {
  const payer = await generateKeyPairSigner();
  const airdrop = await result<string>("requestAirdrop", [payer.address, 1_000_000_000]);
  await waitFor(async () => (await status(airdrop)) !== null);
  const { value } = await result<{ value: { blockhash: string; lastValidBlockHeight: number } }>(
    "getLatestBlockhash",
  );
  const { signature, wire } = await signTransactionToWire({
    feePayer: payer,
    instructions: [
      getTransferSolInstruction({ source: payer, destination: payer.address, amount: lamports(1n) }),
    ],
    blockhash: value.blockhash,
    lastValidBlockHeight: BigInt(value.lastValidBlockHeight),
  });
  return { signature, wire: Buffer.from(wire).toString("base64"), ...value };
}

async function status(signature: string): Promise<unknown> {
  const { value } = await result<{ value: unknown[] }>("getSignatureStatuses", [[signature]]);
  return value[0] ?? null;
}

async function waitFor(done: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms`);
    await sleep(50);
  }
}

describe("fault proxy", () => {
  it("Given no faults, When a transaction is sent, Then it lands as through the node itself", async () => {
    const sent = await signedTransfer();
    expect(await result("sendTransaction", [sent.wire, { encoding: "base64" }])).toBe(sent.signature);
    await waitFor(async () => (await status(sent.signature)) !== null);
  });

  it("Given a 429 burst then a 5xx burst, When read, Then exactly that many answers fail, then reads pass", async () => {
    given.proxy.set({ fail429: 2, fail5xx: 1 });
    const statuses = [];
    for (let index = 0; index < 4; index++) statuses.push((await call("getSlot")).status);
    expect(statuses).toEqual([429, 429, 503, 200]);
  });

  it("Given dropped sends, When a transaction is sent, Then its signature is answered and it never lands", async () => {
    given.proxy.set({ dropSends: 1 });
    const sent = await signedTransfer();
    expect(await result("sendTransaction", [sent.wire, { encoding: "base64" }])).toBe(sent.signature);
    expect(given.proxy.stats.dropped).toContain(sent.signature);
    await sleep(300);
    expect(await status(sent.signature)).toBeNull();
    given.proxy.clear();
    // The same bytes again reach the node: a re-send of a dropped transaction lands.
    await result("sendTransaction", [sent.wire, { encoding: "base64" }]);
    await waitFor(async () => (await status(sent.signature)) !== null);
  });

  it("Given a send held until expiry, When its blockhash is past its last valid height, Then it was forwarded and never landed", async () => {
    given.proxy.set({ expireNextSends: 1 });
    const sent = await signedTransfer();
    expect(await result("sendTransaction", [sent.wire, { encoding: "base64" }])).toBe(sent.signature);
    expect(given.proxy.stats.expired).toEqual([sent.signature]);
    await waitFor(async () => (await result<number>("getBlockHeight")) > sent.lastValidBlockHeight, 30_000);
    await waitFor(async () => (given.proxy.stats.forwarded.sendTransaction ?? 0) >= 2);
    expect(await status(sent.signature)).toBeNull();
  });

  it("Given a lagging node, When slot, blockhash validity and a newer minContextSlot are read, Then it answers from its older view", async () => {
    const fresh = await result<{ context: { slot: number }; value: { blockhash: string } }>(
      "getLatestBlockhash",
    );
    given.proxy.set({ lagMs: 60_000 });
    expect(await result<number>("getSlot")).toBeLessThan(fresh.context.slot);
    const validity = await result<{ value: boolean }>("isBlockhashValid", [fresh.value.blockhash]);
    expect(validity.value).toBe(false);
    const refused = (await (await call("getSlot", [{ minContextSlot: fresh.context.slot }])).json()) as {
      error: { code: number };
    };
    expect(refused.error.code).toBe(-32016);
    given.proxy.clear();
    expect((await result<{ value: boolean }>("isBlockhashValid", [fresh.value.blockhash])).value).toBe(true);
  });

  it("Given a PubSub subscriber, When the proxy cuts PubSub, Then its socket closes; When down, Then new sockets are closed at once", async () => {
    const socket = new WebSocket(given.proxy.wsUrl);
    const notified = new Promise<void>((resolve) => {
      socket.on("message", (data) => {
        if (String(data).includes("slotNotification")) resolve();
      });
    });
    await new Promise((resolve) => socket.once("open", resolve));
    socket.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "slotSubscribe" }));
    await notified;
    const closed = new Promise((resolve) => socket.once("close", resolve));
    expect(given.proxy.cutPubSub()).toBe(1);
    await closed;

    given.proxy.set({ down: true });
    const refused = new WebSocket(given.proxy.wsUrl);
    refused.on("error", () => undefined);
    await new Promise((resolve) => refused.once("close", resolve));
    await expect(call("getSlot")).rejects.toThrow();
  });
});
