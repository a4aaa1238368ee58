/**
 * zk-sdk loading: ESM and CJS callers, in fresh Node processes (module registries start empty
 * there, as in production), get Token-2022's confidential helpers working on the SDK's own zk-sdk
 * instance — `instanceof` holds across both — and nothing happens until the SDK is asked.
 */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { deriveConfidentialKeys, loadTokenConfidentialHelpers } from "@cpay/sdk/confidential";
import { describe, expect, it } from "vitest";

const tsx = fileURLToPath(new URL("../../node_modules/.bin/tsx", import.meta.url));
const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
const run = (script: string, ...args: string[]) =>
  JSON.parse(
    execFileSync(tsx, [fixture(script), ...args], { encoding: "utf8" })
      .trim()
      .split("\n")
      .at(-1) ?? "",
  );

describe("zk-sdk loading", () => {
  it("Given an ESM caller, when it loads Token-2022's helpers through the SDK, then they share the SDK's zk-sdk instance", () => {
    expect(run("zk-sdk-esm-caller.ts")).toEqual({
      bundlerIsNodeBuild: true,
      keysAreInstances: true,
      helperWithSdkKeys: "sequential",
      // Control: keys from another zk-sdk instance are refused, so the check above means something.
      helperWithForeignKeys: "error: expected instance of ElGamalKeypair",
      confidentialKeysStub: "explains",
    });
  });

  it("Given an ESM caller that never asks the SDK, then nothing was patched: the helpers still fail to load", () => {
    // Node 24 loads the bundler build's .wasm as a module of its own (a second zk-sdk instance),
    // which has no ConfidentialKeys in 0.4.1: token-2022's import fails on that.
    expect(run("zk-sdk-esm-caller.ts", "--without-sdk")).toEqual({
      plainImport: expect.stringContaining("does not provide an export named 'ConfidentialKeys'"),
    });
  });

  it("Given a CommonJS caller, when it requires Token-2022's CJS helpers after the SDK's call, then they share the instance", () => {
    expect(run("zk-sdk-cjs-caller.cjs")).toEqual({
      bundlerIsNodeBuild: true,
      keysAreInstances: true,
      helperWithSdkKeys: "sequential",
    });
  });

  it("Given this (vitest) process, then the helpers load and accept the SDK's keys", async () => {
    const helpers = await loadTokenConfidentialHelpers();
    const keys = deriveConfidentialKeys(new Uint8Array(32).fill(3));
    const balance = helpers.decryptConfidentialTransferBalance({
      tokenAccount: {
        extensions: {
          __option: "Some",
          value: [
            {
              __kind: "ConfidentialTransferAccount",
              decryptableAvailableBalance: keys.ae.encrypt(42n).toBytes(),
              pendingBalanceLow: new Uint8Array(64),
              pendingBalanceHigh: new Uint8Array(64),
              pendingBalanceCreditCounter: 0n,
              maximumPendingBalanceCreditCounter: 0n,
              expectedPendingBalanceCreditCounter: 0n,
              actualPendingBalanceCreditCounter: 0n,
            },
          ],
        },
      } as never,
      elgamalSecretKey: keys.elgamal.secret() as never,
      aesKey: keys.ae as never,
    });
    expect(balance.availableBalance).toBe(42n);
  });
});
