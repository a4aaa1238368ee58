import { defineConfig } from "vitest/config";

// One runner for every workspace: tests live beside the code they test (`*.test.ts`) and the
// cross-package suites under `tests/`. Suites share one LiteSVM-heavy machine with 2 cores, so
// files run in forks (native addons are not worker-thread safe) with generous timeouts for proofs.
export default defineConfig({
  test: {
    include: [
      "programs/toolchain/src/**/*.test.ts",
      "sdk/src/**/*.test.ts",
      "localnet/src/**/*.test.ts",
      "ledger/src/**/*.test.ts",
      "api/src/**/*.test.ts",
      "indexer/src/**/*.test.ts",
      "dashboard/src/**/*.test.ts",
      "tests/**/*.test.ts",
    ],
    exclude: ["**/node_modules/**", "target/**"],
    pool: "forks",
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
