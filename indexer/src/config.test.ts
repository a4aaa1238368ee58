import { describe, expect, it } from "vitest";
import { loadIndexerConfig } from "./config";

describe("the indexer's environment", () => {
  const live = {
    INDEXER_ENVIRONMENT: "live",
    LIVE_DATABASE_URL: "postgres://cpay@db.example/live",
    LIVE_RPC_URL: "https://rpc.example/",
    LIVE_WS_URL: "wss://rpc.example/",
    LIVE_PROGRAM_ID: "8Nw3ycbiD91Z5xsgaUEQr8k7KzEkf5HQiTVWRAMkaYLf",
    LIVE_USDG_MINT: "8mZQq32bLyGan896u6frcQiQ2uJCnfRukGFJ3bPWYxg",
    // The test environment's settings, which a live indexer must not fall back to.
    DATABASE_URL: "/tmp/test.sqlite",
    RPC_URL: "http://127.0.0.1:8899",
  };

  it("indexes the live environment from the LIVE_ settings, never the test ones", () => {
    expect(loadIndexerConfig(live)).toMatchObject({
      databaseUrl: live.LIVE_DATABASE_URL,
      rpcUrl: live.LIVE_RPC_URL,
      wsUrl: live.LIVE_WS_URL,
      programId: live.LIVE_PROGRAM_ID,
      usdgMint: live.LIVE_USDG_MINT,
    });
  });

  it("takes Helius' mainnet URLs from LIVE_HELIUS_API_KEY", () => {
    const { LIVE_RPC_URL: _rpc, LIVE_WS_URL: _ws, ...rest } = live;
    expect(loadIndexerConfig({ ...rest, LIVE_HELIUS_API_KEY: "k" })).toMatchObject({
      rpcUrl: "https://mainnet.helius-rpc.com/?api-key=k",
      wsUrl: "wss://mainnet.helius-rpc.com/?api-key=k",
    });
  });

  it.each(["LIVE_DATABASE_URL", "LIVE_WS_URL", "LIVE_PROGRAM_ID", "LIVE_USDG_MINT"])(
    "refuses a live indexer without %s",
    (name) => {
      expect(() => loadIndexerConfig({ ...live, [name]: "" })).toThrow(name);
    },
  );

  it("refuses an unknown INDEXER_ENVIRONMENT", () => {
    expect(() => loadIndexerConfig({ INDEXER_ENVIRONMENT: "prod" })).toThrow("INDEXER_ENVIRONMENT");
  });
});
