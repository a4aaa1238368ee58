import { getBase64EncodedWireTransaction, getSignatureFromTransaction } from "@solana/kit";
import { afterEach, describe, expect, it } from "vitest";
import { openRawSocket } from "./raw-socket";
import { startLocalnet } from "./start-localnet";
import { fundedSigner, signedTransaction, transfer, useTestLocalnet } from "./test-support";

const net = useTestLocalnet();

const call = (method: string, params?: unknown) => JSON.stringify({ jsonrpc: "2.0", id: 1, method, params });
/** The part of an answer that says -32602 (invalid params) with `message`. */
const invalidParams = (message: unknown) => ({ error: { code: -32602, message } });

/** After every bad request, a good one must still be answered: the server keeps serving. */
afterEach(async () => {
  const { status, json } = await net.post(call("getHealth"));
  expect(status).toBe(200);
  expect(json).toEqual({ jsonrpc: "2.0", result: "ok", id: 1 });
});

describe("localnet JSON-RPC: malformed requests get JSON-RPC errors and the server keeps serving", () => {
  it("Given a body that is not JSON, When posted, Then -32700 Parse error", async () => {
    const { status, json } = await net.post('{"jsonrpc":"2.0","id":1,"method":');
    expect(status).toBe(200);
    expect(json).toEqual({ jsonrpc: "2.0", error: { code: -32700, message: "Parse error" }, id: null });
  });

  it("Given JSON that is not a request object or array, When posted, Then -32600", async () => {
    for (const body of ['"hello"', "42", "null", "[]"]) {
      const { json } = await net.post(body);
      expect(json).toMatchObject({ jsonrpc: "2.0", error: { code: -32600 }, id: null });
    }
  });

  it("Given a request without jsonrpc or without method, When posted, Then -32600 naming the member", async () => {
    const noVersion = await net.post(JSON.stringify({ id: 4, method: "getSlot" }));
    expect(noVersion.json).toEqual({
      jsonrpc: "2.0",
      error: { code: -32600, message: 'Invalid request: "jsonrpc" must be "2.0"' },
      id: 4,
    });
    const noMethod = await net.post(JSON.stringify({ jsonrpc: "2.0", id: 5 }));
    expect(noMethod.json).toEqual({
      jsonrpc: "2.0",
      error: { code: -32600, message: 'Invalid request: "method" must be a string' },
      id: 5,
    });
  });

  it("Given an unknown method, When posted, Then -32601 Method not found", async () => {
    const { json } = await net.post(call("getEverything", []));
    expect(json).toEqual({ jsonrpc: "2.0", error: { code: -32601, message: "Method not found" }, id: 1 });
  });

  it("Given params of the wrong type or count, When posted, Then -32602 naming the problem", async () => {
    const wrongType = await net.post(call("getBalance", [5]));
    expect(wrongType.json).toMatchObject(
      invalidParams("Invalid params: param 0 (address): invalid type: integer `5`, expected a string."),
    );
    const tooFew = await net.post(call("getBalance", []));
    expect(tooFew.json).toMatchObject(invalidParams("Invalid params: expected 1 to 2 parameters, got 0"));
    const tooMany = await net.post(call("getSlot", [{}, {}]));
    expect(tooMany.json).toMatchObject(invalidParams("Invalid params: expected at most 1 parameter, got 2"));
    const notAnAddress = await net.post(call("getBalance", ["not-an-address"]));
    expect(notAnAddress.json).toMatchObject(invalidParams(expect.stringMatching(/^Invalid param: Invalid/)));
    const badCommitment = await net.post(call("getSlot", [{ commitment: "max" }]));
    expect(badCommitment.json).toMatchObject(
      invalidParams(
        'Invalid params: commitment: unknown variant string "max", expected one of `processed`, `confirmed`, `finalized`.',
      ),
    );
    const zstd = await net.post(
      call("getAccountInfo", ["11111111111111111111111111111111", { encoding: "base64+zstd" }]),
    );
    expect(zstd.json).toMatchObject(invalidParams(expect.stringContaining("base64+zstd")));
  });

  it("Given a transaction with invalid base58 or base64 characters, When sent, Then -32602 like Solana", async () => {
    const base58 = await net.post(call("sendTransaction", ["3vQB7B6MrGQZaxCuFg4ol"]));
    expect(base58.json).toMatchObject(
      invalidParams("invalid base58 encoding: InvalidCharacter { character: 'l', index: 20 }"),
    );
    const base64 = await net.post(call("sendTransaction", ["AQID!!==", { encoding: "base64" }]));
    expect(base64.json).toMatchObject(invalidParams("invalid base64 encoding: InvalidByte(4, 33)"));
    const garbage = await net.post(call("simulateTransaction", ["AQID", { encoding: "base64" }]));
    expect(garbage.json).toMatchObject(
      invalidParams(
        "failed to deserialize solana_transaction::versioned::VersionedTransaction: io error: unexpected end of file",
      ),
    );
  });

  it("Given a transaction over 1232 bytes, When sent, Then -32602 with Solana's size message", async () => {
    const tooLarge = Buffer.alloc(1281, 1).toString("base64");
    const { json } = await net.post(call("sendTransaction", [tooLarge, { encoding: "base64" }]));
    expect(json).toMatchObject(
      invalidParams(
        "base64 encoded solana_transaction::versioned::VersionedTransaction too large: 1708 bytes (max: encoded/raw 1644/1232)",
      ),
    );
    const base58 = await net.post(call("sendTransaction", ["2".repeat(1700)]));
    expect(base58.json).toMatchObject(
      invalidParams(
        "base58 encoded solana_transaction::versioned::VersionedTransaction too large: 1700 bytes (max: encoded/raw 1683/1232)",
      ),
    );
  });

  it("Given an HTTP body over the limit, When posted, Then 413 with a JSON-RPC error", async () => {
    const { status, json } = await net.post(call("getBalance", ["x".repeat(60 * 1024)]));
    expect(status).toBe(413);
    expect(json).toEqual({
      jsonrpc: "2.0",
      error: { code: -32600, message: "Invalid request: request body exceeds the 51200-byte limit" },
      id: null,
    });
  });

  it("Given a batch of good and bad requests, When posted, Then each gets its own answer in order", async () => {
    const body = JSON.stringify([
      { jsonrpc: "2.0", id: 1, method: "getHealth" },
      { jsonrpc: "2.0", id: 2, method: "nope" },
      { jsonrpc: "2.0", id: 3, method: "getBalance", params: [true] },
      { jsonrpc: "2.0", method: "getHealth" },
    ]);
    const { json } = await net.post(body);
    expect(json).toEqual([
      { jsonrpc: "2.0", result: "ok", id: 1 },
      { jsonrpc: "2.0", error: { code: -32601, message: "Method not found" }, id: 2 },
      {
        jsonrpc: "2.0",
        error: {
          code: -32602,
          message: "Invalid params: param 0 (address): invalid type: boolean `true`, expected a string.",
        },
        id: 3,
      },
    ]);
  });

  it("Given a non-POST request, When sent, Then 405, and GET /health answers ok like a validator", async () => {
    const put = await fetch(net.localnet.rpcUrl, { method: "PUT", body: "{}" });
    expect(put.status).toBe(405);
    const health = await fetch(`${net.localnet.rpcUrl}/health`);
    expect(await health.text()).toBe("ok");
  });

  it("Given a resend of a landed transaction, When sent without and with preflight, Then AlreadyProcessed, or the signature", async () => {
    const payer = await fundedSigner(net, 1n);
    const transaction = await signedTransaction(net, payer, [transfer(payer, payer.address, 1n)]);
    const encoded = getBase64EncodedWireTransaction(transaction);
    const first = await net.post(call("sendTransaction", [encoded, { encoding: "base64" }]));
    expect(first.json).toMatchObject({ result: getSignatureFromTransaction(transaction) });
    const again = await net.post(call("sendTransaction", [encoded, { encoding: "base64" }]));
    expect(again.json).toMatchObject({
      error: {
        code: -32002,
        message: "Transaction simulation failed: This transaction has already been processed",
        data: { err: "AlreadyProcessed", logs: [] },
      },
    });
    const skipped = await net.post(
      call("sendTransaction", [encoded, { encoding: "base64", skipPreflight: true }]),
    );
    expect(skipped.json).toMatchObject({ result: getSignatureFromTransaction(transaction) });
  });
});

describe("localnet binding", () => {
  it("Given a non-loopback host, When startLocalnet is asked to bind it, Then it refuses before listening", async () => {
    await expect(
      startLocalnet({ cluster: net.cluster, host: "0.0.0.0", rpcPort: 0, wsPort: 0 }),
    ).rejects.toThrow(/only binds loopback/);
  });
});

describe("localnet PubSub: malformed messages get JSON-RPC errors and the socket keeps serving", () => {
  it("Given garbage, an unknown method and bad params over WebSocket, When sent, Then errors come back and a subscription still works", async () => {
    const socket = await openRawSocket(net.localnet.wsUrl);
    try {
      socket.sendText("{oops");
      expect(await socket.next((message) => message.id === null)).toMatchObject({
        error: { code: -32700, message: "Parse error" },
      });
      expect(await socket.request("blockSubscribe", [])).toMatchObject({ error: { code: -32601 } });
      expect(await socket.request("logsSubscribe", [{ mentions: ["a", "b"] }])).toMatchObject({
        error: { code: -32602 },
      });
      expect(await socket.request("signatureSubscribe", ["nope"])).toMatchObject({ error: { code: -32602 } });
      expect(await socket.request("slotUnsubscribe", [424242])).toMatchObject({
        error: { code: -32602, message: "Invalid subscription id." },
      });
      // kit's keep-alive is a notification: no answer at all.
      socket.sendText('{"jsonrpc":"2.0","method":"ping"}');

      const subscribed = await socket.request("slotSubscribe", []);
      expect(subscribed.result).toBeTypeOf("number");
      const notification = await socket.next((message) => message.method === "slotNotification");
      expect(notification.params).toMatchObject({ subscription: subscribed.result });
      expect(await socket.request("slotUnsubscribe", [subscribed.result])).toMatchObject({ result: true });
    } finally {
      socket.close();
    }
  });
});
