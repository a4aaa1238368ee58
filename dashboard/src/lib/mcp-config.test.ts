import { describe, expect, it } from "vitest";
import { clusterUrlProblem, configText, localServerConfig, remoteServerConfig } from "./mcp-config";

const settings = {
  apiUrl: "http://localhost:3000",
  apiKey: `svc_test_${"k".repeat(43)}`,
  signerSecret: "4NmF1vKq",
  confidentialSecret: `A${"s".repeat(42)}=`,
  rpcUrl: "http://127.0.0.1:8899",
  wsUrl: "ws://127.0.0.1:8900",
};

describe("the MCP client configuration", () => {
  it("Given the local server's settings, Then the host starts cpay-mcp with each of them in its environment", () => {
    const parsed = JSON.parse(configText(localServerConfig({ ...settings, confirmAbove: "25" })));
    expect(parsed).toEqual({
      mcpServers: {
        cpay: {
          command: "npx",
          args: ["--no", "cpay-mcp"],
          env: {
            CPAY_API_URL: settings.apiUrl,
            CPAY_AGENT_API_KEY: settings.apiKey,
            CPAY_AGENT_SIGNER_SECRET: settings.signerSecret,
            CPAY_AGENT_CONFIDENTIAL_SECRET: settings.confidentialSecret,
            SOLANA_RPC_URL: settings.rpcUrl,
            SOLANA_WS_URL: settings.wsUrl,
            CPAY_MCP_CONFIRM_ABOVE: "25",
          },
        },
      },
    });
  });

  it("Given no confirmation amount, Then the setting is left out (the server never asks), not empty", () => {
    const { env } = localServerConfig({ ...settings, confirmAbove: null }).mcpServers.cpay as {
      env: Record<string, string>;
    };
    expect(Object.keys(env)).not.toContain("CPAY_MCP_CONFIRM_ABOVE");
  });

  it("Given the service's origin and a key, Then the remote entry is its /mcp URL with the key as the bearer", () => {
    for (const serviceOrigin of ["https://pay.example", "https://pay.example/"]) {
      expect(remoteServerConfig({ serviceOrigin, apiKey: settings.apiKey })).toEqual({
        mcpServers: {
          cpay: {
            type: "http",
            url: "https://pay.example/mcp",
            headers: { Authorization: `Bearer ${settings.apiKey}` },
          },
        },
      });
    }
  });

  it("Given cluster URLs, Then only http(s) for RPC and ws(s) for subscriptions pass", () => {
    expect(clusterUrlProblem("http://127.0.0.1:8899", "rpc")).toBeNull();
    expect(clusterUrlProblem(" https://rpc.example ", "rpc")).toBeNull();
    expect(clusterUrlProblem("wss://rpc.example", "ws")).toBeNull();
    expect(clusterUrlProblem("ws://127.0.0.1:8900", "rpc")).toMatch(/http:\/\/ or https:\/\//);
    expect(clusterUrlProblem("http://127.0.0.1:8900", "ws")).toMatch(/ws:\/\/ or wss:\/\//);
    expect(clusterUrlProblem("", "rpc")).toMatch(/RPC URL/);
    expect(clusterUrlProblem("127.0.0.1:8900", "ws")).toMatch(/WebSocket URL/);
  });
});
