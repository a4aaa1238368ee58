import { describe, expect, it } from "vitest";
import { parseLogsArguments, pubSubUrlOf } from "./solana-logs";

describe("the `solana logs` shim anchor test runs", () => {
  it("Given the arguments anchor passes, When parsed, Then it follows that address at that URL", () => {
    expect(
      parseLogsArguments(["8Nw3ycbiD91Z5xsgaUEQr8k7KzEkf5HQiTVWRAMkaYLf", "--url", "http://127.0.0.1:18899"]),
    ).toEqual({
      account: "8Nw3ycbiD91Z5xsgaUEQr8k7KzEkf5HQiTVWRAMkaYLf",
      rpcUrl: "http://127.0.0.1:18899",
    });
    expect(parseLogsArguments(["Abc", "-u", "localhost"]).rpcUrl).toBe("http://127.0.0.1:8899");
  });

  it("Given no address or an unknown flag, When parsed, Then it refuses, naming the problem", () => {
    expect(() => parseLogsArguments(["--url", "http://x"])).toThrow(/address to follow is required/);
    expect(() => parseLogsArguments(["Abc", "--json"])).toThrow(/unexpected argument --json/);
  });

  it("Given an RPC URL, When the PubSub URL is derived, Then it is the CLI's: ws(s), port + 1", () => {
    expect(pubSubUrlOf("http://127.0.0.1:8899")).toBe("ws://127.0.0.1:8900/");
    expect(pubSubUrlOf("https://rpc.example")).toBe("wss://rpc.example/");
  });
});
