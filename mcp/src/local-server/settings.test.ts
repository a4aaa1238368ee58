/**
 * The local server's settings: the agent's six, and the local confirmation threshold read exactly
 * (decimal USDG to base units), unset meaning never, a malformed one refused by name. And the
 * transfer id an idempotency key stands for: the same for the same agent and key, another for
 * another of either.
 */
import { describe, expect, it } from "vitest";
import { idempotentTransferId } from "./idempotent-transfer-id";
import { localServerSettingsFromEnv } from "./settings";

const AGENT_ENV = {
  CPAY_API_URL: "http://127.0.0.1:3000",
  CPAY_AGENT_API_KEY: "svc_test_x",
  CPAY_AGENT_SIGNER_SECRET: "seed",
  CPAY_AGENT_CONFIDENTIAL_SECRET: "secret",
  SOLANA_RPC_URL: "http://127.0.0.1:8899",
  SOLANA_WS_URL: "ws://127.0.0.1:8900",
};

describe("the local server's settings", () => {
  it("Given the agent's settings and a threshold, When read, Then the threshold is exact base units, and unset or empty means never", () => {
    expect(localServerSettingsFromEnv({ ...AGENT_ENV, CPAY_MCP_CONFIRM_ABOVE: "12.5" })).toMatchObject({
      agent: { apiKey: "svc_test_x", rpcUrl: "http://127.0.0.1:8899" },
      confirmAbove: 12_500_000n,
    });
    expect(localServerSettingsFromEnv(AGENT_ENV).confirmAbove).toBeNull();
    expect(localServerSettingsFromEnv({ ...AGENT_ENV, CPAY_MCP_CONFIRM_ABOVE: " " }).confirmAbove).toBeNull();
  });

  it("Given a malformed threshold or a missing agent setting, When read, Then it is refused naming the variable", () => {
    expect(() => localServerSettingsFromEnv({ ...AGENT_ENV, CPAY_MCP_CONFIRM_ABOVE: "1.0000001" })).toThrow(
      /CPAY_MCP_CONFIRM_ABOVE has more than 6 decimals/,
    );
    expect(() => localServerSettingsFromEnv({ ...AGENT_ENV, CPAY_MCP_CONFIRM_ABOVE: "ten" })).toThrow(
      /CPAY_MCP_CONFIRM_ABOVE/,
    );
    expect(() => localServerSettingsFromEnv({ ...AGENT_ENV, SOLANA_WS_URL: "" })).toThrow(
      /set SOLANA_WS_URL/,
    );
  });
});

describe("the transfer id of an idempotency key", () => {
  it("Given the same agent and key, Then the same 16 bytes and tr_ id; another agent or key, another id", () => {
    const first = idempotentTransferId("agentA", "order-1");

    expect(first.bytes).toHaveLength(16);
    expect(first.id).toMatch(/^tr_[a-z2-7]{26}$/);
    expect(idempotentTransferId("agentA", "order-1")).toEqual(first);
    expect(idempotentTransferId("agentB", "order-1").id).not.toBe(first.id);
    expect(idempotentTransferId("agentA", "order-2").id).not.toBe(first.id);
  });
});
