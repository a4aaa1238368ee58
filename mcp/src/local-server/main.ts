#!/usr/bin/env -S npx tsx
/**
 * `cpay-mcp` (`npm run mcp`, `npx cpay-mcp`): the local MCP server of a self-custody agent over
 * stdio, as an MCP host starts it. Its settings are the environment (settings.ts); stdout carries
 * the protocol only, so everything else goes to stderr. It stops when the host closes stdin.
 */
import { connectAgent } from "@cpay/sdk/agent-client";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { createLocalServer } from "./local-server";
import { localServerSettingsFromEnv } from "./settings";

async function main(): Promise<void> {
  const settings = localServerSettingsFromEnv(process.env);
  const agent = await connectAgent(settings.agent);
  const server = createLocalServer(agent, { confirmAbove: settings.confirmAbove });
  const transport = new StdioServerTransport();
  transport.onclose = () => {
    void agent.close().finally(() => process.exit(0));
  };
  await server.connect(transport);
  process.stdin.once("end", () => {
    void server.close();
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`cpay-mcp: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
