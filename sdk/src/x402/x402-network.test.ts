import { SOLANA_DEVNET_CAIP2, SOLANA_MAINNET_CAIP2, SOLANA_TESTNET_CAIP2 } from "@x402/svm";
import { describe, expect, it } from "vitest";
import { solanaNetworkOf } from "./x402-network";

describe("solanaNetworkOf", () => {
  it("Given the genesis hashes of mainnet-beta, devnet and testnet, When named, Then they are the ids the official x402 packages list", () => {
    expect(solanaNetworkOf("5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d")).toBe(SOLANA_MAINNET_CAIP2);
    expect(solanaNetworkOf("EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG")).toBe(SOLANA_DEVNET_CAIP2);
    expect(solanaNetworkOf("4uhcVJyU9pJkvQyS88uRDiswHXSCkY3zQawwpjk2NsNY")).toBe(SOLANA_TESTNET_CAIP2);
  });

  it("Given a localnet's own genesis hash, When named, Then its id is its own (the first 32 characters), not an official one", () => {
    const genesis = "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin";

    expect(solanaNetworkOf(genesis)).toBe("solana:9xQeWvG816bUx9EPjHmaT23yvVM2ZWbr");
    expect([SOLANA_MAINNET_CAIP2, SOLANA_DEVNET_CAIP2, SOLANA_TESTNET_CAIP2]).not.toContain(
      solanaNetworkOf(genesis),
    );
  });
});
