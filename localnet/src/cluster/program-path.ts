/**
 * Where the agent-policy program's .so is: `AGENT_POLICY_SO` if set, else the toolchain's output
 * `<repo>/target/deploy/agent_policy.so`, located from this file (not the working directory) so any
 * workspace, test runner or script finds the same file.
 */
import { fileURLToPath } from "node:url";

/** `<repo>/target/deploy/agent_policy.so`, from `localnet/src/cluster/`. */
export const DEFAULT_AGENT_POLICY_SO = fileURLToPath(
  new URL("../../../target/deploy/agent_policy.so", import.meta.url),
);

export function agentPolicyProgramPath(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.AGENT_POLICY_SO;
  return fromEnv !== undefined && fromEnv !== "" ? fromEnv : DEFAULT_AGENT_POLICY_SO;
}
