/**
 * Makes `@solana-program/token-2022/confidential` loadable in Node, sharing our zk-sdk instance.
 *
 * Token-2022's helpers import `@solana/zk-sdk/bundler`, which Node would load as a second zk-sdk
 * instance whose keys ours are not (see zk-sdk.ts), and they import `ConfidentialKeys`, which zk-sdk
 * 0.4.1 (the newest on our registry) does not have, so on its own the import fails. The options and
 * why we took this one:
 * - npm `overrides`/aliases replace whole packages, not one subpath, and zk-sdk is only an optional
 *   peer of token-2022, so npm would not place an aliased copy where token-2022 resolves it.
 * - package.json `imports` only maps `#` specifiers of the package that declares them (ours), and
 *   zk-sdk's `./bundler` export has no condition we could select.
 * - Patching `Module._resolveFilename` or `globalThis` would change resolution for everything.
 * So one explicit call, `useZkSdkNodeBuildForBundlerImports()`, affects exactly one specifier —
 * `@solana/zk-sdk/bundler`, which is of no use in Node anyway — and nothing else:
 * - ESM: a resolve hook (`module.register`) maps it to a module that re-exports the Node build and
 *   adds a `ConfidentialKeys` that throws a clear error (signature-derived keys need zk-sdk 0.5; we
 *   derive keys with HKDF, see keys.ts). Hooks apply to imports that start after registration, so
 *   load token-2022's helpers with `loadTokenConfidentialHelpers()` (a dynamic import), or register
 *   before the app's module graph loads.
 * - CJS: the bundler build's file gets a `require.cache` entry holding the same exports, so a later
 *   `require("@solana/zk-sdk/bundler")` (token-2022's CJS build does this) returns the Node build.
 * Both point at the very module object zk-sdk.ts imports, so `instanceof` holds across all callers.
 */
import { createRequire, register } from "node:module";
import { pathToFileURL } from "node:url";

const BUNDLER_SPECIFIER = "@solana/zk-sdk/bundler";
const CONFIDENTIAL_KEYS_MESSAGE =
  "ConfidentialKeys (signature-derived keys) needs @solana/zk-sdk >= 0.5; this process runs the 0.4.1 " +
  "Node build. Derive keys with deriveConfidentialKeys from @cpay/sdk/confidential.";

let installed = false;

/** Points every later load of `@solana/zk-sdk/bundler` in this process at the Node build. Idempotent. */
export function useZkSdkNodeBuildForBundlerImports(): void {
  if (installed) return;
  const require = createRequire(import.meta.url);
  const nodeBuildPath = require.resolve("@solana/zk-sdk/node");
  const bundlerBuildPath = require.resolve(BUNDLER_SPECIFIER);
  const nodeBuild = require(nodeBuildPath) as Record<string, unknown>;

  if (require.cache[bundlerBuildPath] === undefined) {
    const exports = { ...nodeBuild, ConfidentialKeys: unavailableConfidentialKeys() };
    const Module = require("node:module") as { new (id: string): NodeJS.Module };
    const entry = new Module(bundlerBuildPath);
    entry.filename = bundlerBuildPath;
    entry.loaded = true;
    entry.exports = exports;
    require.cache[bundlerBuildPath] = entry;
  }

  const shim =
    `export * from ${JSON.stringify(pathToFileURL(nodeBuildPath).href)};\n` +
    `const message = ${JSON.stringify(CONFIDENTIAL_KEYS_MESSAGE)};\n` +
    "export class ConfidentialKeys { constructor() { throw new Error(message); }" +
    " static signerMessage() { throw new Error(message); } static fromSignature() { throw new Error(message); } }\n";
  const hooks =
    "export async function resolve(specifier, context, nextResolve) {\n" +
    `  if (specifier === ${JSON.stringify(BUNDLER_SPECIFIER)}) {\n` +
    `    return { url: ${JSON.stringify(dataUrl(shim))}, format: "module", shortCircuit: true };\n` +
    "  }\n" +
    "  return nextResolve(specifier, context);\n" +
    "}\n";
  register(dataUrl(hooks));
  installed = true;
}

/** The token-2022 confidential helpers module, loaded against this process's zk-sdk instance. */
export async function loadTokenConfidentialHelpers(): Promise<
  typeof import("@solana-program/token-2022/confidential")
> {
  useZkSdkNodeBuildForBundlerImports();
  return import("@solana-program/token-2022/confidential");
}

function dataUrl(source: string): string {
  return `data:text/javascript,${encodeURIComponent(source)}`;
}

function unavailableConfidentialKeys() {
  const fail = (): never => {
    throw new Error(CONFIDENTIAL_KEYS_MESSAGE);
  };
  return class ConfidentialKeys {
    constructor() {
      fail();
    }
    static signerMessage = fail;
    static fromSignature = fail;
  };
}
