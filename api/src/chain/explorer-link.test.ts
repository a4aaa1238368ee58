import { describe, expect, it } from "vitest";
import { explorerTransactionUrl } from "./explorer-link";

describe("explorerTransactionUrl", () => {
  it("names the public cluster by its genesis hash", () => {
    expect(explorerTransactionUrl("EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG", null)).toBe(
      "https://explorer.solana.com/tx/{signature}?cluster=devnet",
    );
    expect(explorerTransactionUrl("5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d", null)).toBe(
      "https://explorer.solana.com/tx/{signature}",
    );
    // A public cluster stays itself even when reached through a local RPC.
    expect(
      explorerTransactionUrl("4uhcVJyU9pJkvQyS88uRDiswHXSCkY3zQawwpjk2NsNY", "http://127.0.0.1:8899"),
    ).toBe("https://explorer.solana.com/tx/{signature}?cluster=testnet");
  });

  it("shows a localnet through its own RPC URL, and gives no link for an unknown cluster", () => {
    expect(explorerTransactionUrl("LocalGenesis1111", "http://127.0.0.1:41234")).toBe(
      "https://explorer.solana.com/tx/{signature}?cluster=custom&customUrl=http%3A%2F%2F127.0.0.1%3A41234",
    );
    expect(explorerTransactionUrl("LocalGenesis1111", null)).toBeNull();
    expect(explorerTransactionUrl("hasOwnProperty", null)).toBeNull();
  });
});
