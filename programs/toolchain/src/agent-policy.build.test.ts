import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildProgram, DEFAULT_CRATE } from "./build";
import { createHarness, deployVerified, invoke } from "./testing/litesvm-harness";
import { tempDir } from "./testing/llvm";

/**
 * Smoke test of the real program through the pipeline `npm run build:program` runs: it must
 * build, pass the loader's verification on deploy, and run to a decision of its own (success or
 * a custom program error) rather than a VM fault. Behaviour is tested by the program's suites.
 */
describe.runIf(existsSync(join(DEFAULT_CRATE, "Cargo.toml")))(
  "programs/agent-policy through the pipeline",
  () => {
    it("given the program crate, when built and deployed through the upgradeable loader, then an empty instruction gets a program-level answer", async () => {
      const built = buildProgram({ out: join(tempDir(), "agent_policy.so") });
      const harness = await createHarness();

      const programId = await deployVerified(harness, new Uint8Array(readFileSync(built.so)));
      const result = await invoke(harness, programId, new Uint8Array(0));

      expect(result.logs[0]).toBe(`Program ${programId} invoke [1]`);
      if (result.error !== undefined) expect(result.error).toMatch(/InstructionErrorCustom/);
    }, 120_000);
  },
);
