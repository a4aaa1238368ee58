import { defineConfig } from "vitest/config";

// One runner for every workspace: tests live beside the code they test (`*.test.ts`) and the
// cross-package suites under `tests/`. Suites share one LiteSVM-heavy machine with 2 cores, so
// files run in forks (native addons are not worker-thread safe) with generous timeouts for proofs.
// Two files at a time: vitest's default on 2 cores is one (cores - 1), but most suites spend much of
// their time waiting on a localnet process, slots or a child service, so a second file fills the
// idle core. The PostgreSQL-over-RPC pass passed this way at a load average of 10-14.
//
// Two projects. `unit`, the tests beside the code, share one module registry per worker
// (`isolate: false`): they set no globals, mock no modules and reset what module state they touch
// (the proof pool's size, in its own afterEach), so a fresh process per file only cost the imports
// again (the 120 files: 34 s isolated, 20 s not, on this 2-core machine). `suites`, under tests/,
// stay isolated: they start services, clusters and child processes whose module-level registries
// (background jobs, proof pools, queues keyed by service) each file expects to meet fresh.
const UNIT = [
  "programs/toolchain/src/**/*.test.ts",
  "sdk/src/**/*.test.ts",
  "localnet/src/**/*.test.ts",
  "ledger/src/**/*.test.ts",
  "api/src/**/*.test.ts",
  "indexer/src/**/*.test.ts",
  "tools/src/**/*.test.ts",
  "mcp/src/**/*.test.ts",
  "dashboard/src/**/*.test.ts",
];

export default defineConfig({
  test: {
    exclude: ["**/node_modules/**", "target/**"],
    // Stops the throwaway PostgreSQL a run started (tests/support/postgres-teardown.ts).
    globalSetup: ["tests/support/postgres-teardown.ts"],
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    projects: [
      { extends: true, test: { name: "unit", include: UNIT, isolate: false } },
      { extends: true, test: { name: "suites", include: ["tests/**/*.test.ts"] } },
    ],
  },
});
