/** `agents keys issue <@owner/agent>`: an agent's own API key (it spends under its on-chain policy). */
import type { Command } from "commander";
import { CliError, EXIT } from "../cli-error";
import { issueKey } from "./keys";

/** Adds the `agents` command group to `program`. */
export function registerAgentCommands(program: Command): void {
  const agents = program
    .command("agents")
    .description("agent accounts (created through POST /v1/accounts/me/agents)");
  const keys = agents.command("keys").description("an agent's API keys");
  keys
    .command("issue")
    .description("issue an API key for an agent (printed once); same as `keys issue` with an agent handle")
    .argument("<agent_handle>", "the agent's handle, @owner/name")
    .requiredOption("--name <name>", "a name to recognise the key by")
    .option(
      "--live",
      "a svc_live_ key (mainnet-beta) instead of svc_test_ (issued where --environment says: live, once a live environment is configured)",
    )
    .action(async (handle: string, options: { name: string; live?: boolean }, command: Command) => {
      if (!handle.includes("/")) {
        throw new CliError(`${handle} is not an agent handle (@owner/name); use \`keys issue\``, EXIT.usage);
      }
      await issueKey(handle, options, command);
    });
}
