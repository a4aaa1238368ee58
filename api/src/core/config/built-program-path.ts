/**
 * Which build of the agent-policy program the service holds a deployed program against: a setting
 * of every environment (environment-settings.ts), and what the start-up check compares the
 * deployed bytes with (chain/startup-checks/program-deployed.ts).
 */
import { fileURLToPath } from "node:url";

/** The program this repository builds (programs/, committed with its build record). */
export const BUILT_PROGRAM_PATH = fileURLToPath(
  new URL("../../../../target/deploy/agent_policy.so", import.meta.url),
);

/**
 * The build to compare with: `AGENT_POLICY_SO` when set (the same setting the localnet deploys, so a
 * freshly rebuilt program is what both sides mean), else `target/deploy/agent_policy.so`.
 */
export function builtProgramPath(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.AGENT_POLICY_SO;
  return fromEnv !== undefined && fromEnv !== "" ? fromEnv : BUILT_PROGRAM_PATH;
}
