import { describe, expect, it, vi } from "vitest";
import { dispatchJsonRpc, type Handler } from "./json-rpc-dispatch";
import { invalidParams } from "./json-rpc-errors";

const methods: Record<string, Handler> = {
  echo: (params) => params,
  big: () => 2n ** 64n - 1n,
  fails: () => {
    throw invalidParams("Invalid params: nope");
  },
  buggy: () => {
    throw new TypeError("boom");
  },
};
const options = { resolve: (method: string) => methods[method] };
const dispatch = (body: string) => {
  const text = dispatchJsonRpc(body, options);
  return text === null ? null : JSON.parse(text);
};

describe("dispatchJsonRpc", () => {
  it("Given a valid request, When dispatched, Then the result carries the request id", () => {
    expect(dispatch('{"jsonrpc":"2.0","id":"a","method":"echo","params":[1]}')).toEqual({
      jsonrpc: "2.0",
      result: [1],
      id: "a",
    });
  });

  it("Given a u64 result, When dispatched, Then it is written as a JSON number", () => {
    expect(dispatchJsonRpc('{"jsonrpc":"2.0","id":1,"method":"big"}', options)).toContain(
      '"result":18446744073709551615',
    );
  });

  it("Given bad envelopes, When dispatched, Then each gets its JSON-RPC error code", () => {
    expect(dispatch("{not json").error).toEqual({ code: -32700, message: "Parse error" });
    expect(dispatch("42").error.code).toBe(-32600);
    expect(dispatch("[]").error.code).toBe(-32600);
    expect(dispatch('{"id":1,"method":"echo"}').error.code).toBe(-32600);
    expect(dispatch('{"jsonrpc":"2.0","id":1}').error.code).toBe(-32600);
    expect(dispatch('{"jsonrpc":"2.0","id":{},"method":"echo"}').error.code).toBe(-32600);
    expect(dispatch('{"jsonrpc":"2.0","id":1,"method":"nope"}').error).toEqual({
      code: -32601,
      message: "Method not found",
    });
    expect(dispatch('{"jsonrpc":"2.0","id":1,"method":"fails"}').error).toEqual({
      code: -32602,
      message: "Invalid params: nope",
    });
  });

  it("Given a handler bug, When dispatched, Then the client gets -32603 and the bug is reported", () => {
    const onInternalError = vi.fn();
    const text = dispatchJsonRpc('{"jsonrpc":"2.0","id":3,"method":"buggy"}', {
      ...options,
      onInternalError,
    });
    expect(JSON.parse(text as string)).toEqual({
      jsonrpc: "2.0",
      error: { code: -32603, message: "Internal error" },
      id: 3,
    });
    expect(onInternalError).toHaveBeenCalledWith(expect.any(TypeError), "buggy");
  });

  it("Given a batch with a notification and an invalid member, When dispatched, Then only calls are answered, in order", () => {
    const body = JSON.stringify([
      { jsonrpc: "2.0", id: 1, method: "echo", params: ["x"] },
      { jsonrpc: "2.0", method: "echo" },
      7,
      { jsonrpc: "2.0", id: 2, method: "nope" },
    ]);
    expect(dispatch(body)).toEqual([
      { jsonrpc: "2.0", result: ["x"], id: 1 },
      {
        jsonrpc: "2.0",
        error: { code: -32600, message: "Invalid request: a request must be a JSON object" },
        id: null,
      },
      { jsonrpc: "2.0", error: { code: -32601, message: "Method not found" }, id: 2 },
    ]);
  });

  it("Given only notifications (kit's ping), When dispatched, Then nothing is sent back", () => {
    expect(dispatchJsonRpc('{"jsonrpc":"2.0","method":"ping"}', options)).toBeNull();
  });
});
