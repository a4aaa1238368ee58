/**
 * Both MCP servers driven by the official inspector's command line (`mcp-inspector-cli --cli` of
 * `@modelcontextprotocol/inspector-cli`), as an integrator would try them: the local server started
 * from an `mcpServers` config file exactly like a desktop host's (command, args, env), and the
 * remote one by its `/mcp` URL with the key as the bearer. Each lists its tools and answers a call.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { promisify } from "node:util";
import { LOCAL_SERVER_TOOLS } from "@cpay/mcp/tools";
import {
  deriveAgentConfidentialSecret,
  exportConfidentialSecret,
  importConfidentialSecret,
} from "@cpay/sdk/confidential";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSelfCustodyAgent, type SelfCustodyAgent } from "../api/support/self-custody";
import { type ApiWorld, startApiWorld, usdg, type WorldAccount } from "../support/api-world";

const REPO = resolve(import.meta.dirname, "../..");
const INSPECTOR = join(
  dirname(createRequire(import.meta.url).resolve("@modelcontextprotocol/inspector-cli/package.json")),
  "build/cli.js",
);
const run = promisify(execFile);

let world: ApiWorld;
let owner: WorldAccount;
let agent: SelfCustodyAgent;
let configDir: string;

/** Runs the inspector in CLI mode with `args`; answers its stdout parsed as JSON. */
async function inspector<T>(args: readonly string[]): Promise<T> {
  const { stdout } = await run(process.execPath, [INSPECTOR, "--cli", ...args], {
    // Its own build folder: inspector-cli 1.0.3 looks for `../package.json` from the working
    // directory, then imports it from its module, so only there do the two agree.
    cwd: dirname(INSPECTOR),
    timeout: 180_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  return JSON.parse(stdout) as T;
}

interface ToolList {
  readonly tools: readonly { readonly name: string; readonly inputSchema: object }[];
}
interface CallAnswer {
  readonly isError?: boolean;
  readonly content: readonly { readonly type: string; readonly text?: string }[];
  readonly structuredContent?: Record<string, unknown>;
}

beforeAll(async () => {
  world = await startApiWorld({ chain: "rpc" });
  owner = await world.account("owner", { type: "business" });
  agent = await createSelfCustodyAgent(world, owner, "inspected");
  await world.fund(await world.accountRow(agent.created.account_id), { public: usdg(5) });
  configDir = mkdtempSync(join(tmpdir(), "cpay-inspector-"));
  // The local server's entry as a desktop host's config holds it (the dashboard's "Connect an agent").
  writeFileSync(
    join(configDir, "mcp.json"),
    JSON.stringify({
      mcpServers: {
        cpay: {
          command: "npm",
          args: ["run", "--silent", "--prefix", REPO, "mcp"],
          env: {
            PATH: process.env.PATH ?? "",
            HOME: process.env.HOME ?? "",
            CPAY_API_URL: world.url,
            CPAY_AGENT_API_KEY: agent.key.value,
            CPAY_AGENT_SIGNER_SECRET: agent.created.signer_secret as string,
            CPAY_AGENT_CONFIDENTIAL_SECRET: exportConfidentialSecret(
              deriveAgentConfidentialSecret(
                importConfidentialSecret(owner.confidentialSecret),
                "owner/inspected",
              ),
            ),
            SOLANA_RPC_URL: world.localnet?.rpcUrl() as string,
            SOLANA_WS_URL: world.localnet?.wsUrl() as string,
          },
        },
      },
    }),
  );
}, 300_000);

afterAll(async () => {
  if (configDir !== undefined) rmSync(configDir, { recursive: true, force: true });
  await world?.close();
});

describe("the MCP servers under the official inspector's CLI", () => {
  const local = () => ["--config", join(configDir, "mcp.json"), "--server", "cpay"];
  const remote = (key: string) => [
    `${world.url}/mcp`,
    "--transport",
    "http",
    "--header",
    `Authorization: Bearer ${key}`,
  ];

  it("Given the local server from a host's config file, When the inspector lists its tools and calls get_policy, Then it gets the local set and the agent's policy", async () => {
    const listed = await inspector<ToolList>([...local(), "--method", "tools/list"]);
    expect(listed.tools.map((tool) => tool.name).sort()).toEqual(
      LOCAL_SERVER_TOOLS.map((tool) => tool.name).sort(),
    );

    const policy = await inspector<CallAnswer>([
      ...local(),
      "--method",
      "tools/call",
      "--tool-name",
      "get_policy",
    ]);
    expect(policy.isError ?? false).toBe(false);
    expect(JSON.stringify(policy.content)).toContain("USDG");
  });

  it("Given the remote server and the owner's key, When the inspector lists its tools and calls get_account, Then it answers the owner's account", async () => {
    const listed = await inspector<ToolList>([...remote(owner.key.value), "--method", "tools/list"]);
    expect(listed.tools.map((tool) => tool.name)).toContain("pay");

    const account = await inspector<CallAnswer>([
      ...remote(owner.key.value),
      "--method",
      "tools/call",
      "--tool-name",
      "get_account",
    ]);
    expect(account.isError ?? false).toBe(false);
    expect(JSON.stringify(account.content)).toContain("@owner");
  });

  it("Given a key that does not exist, When the inspector calls the remote server, Then it fails to connect and nothing answers", async () => {
    await expect(inspector([...remote("svc_test_not_a_key"), "--method", "tools/list"])).rejects.toThrow();
  });
});
