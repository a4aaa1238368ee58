import { spawnSync } from "node:child_process";
import { chmodSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "./build";
import { tempDir } from "./testing/llvm";

const SCRIPT = join(REPO_ROOT, "scripts", "install-system-deps.sh");

/** Runs the script with fake `dpkg-query`/`apt-get` first on PATH (nothing real is installed). */
function runWithFakes(fakes: Record<string, string>) {
  const bin = tempDir();
  for (const [name, body] of Object.entries(fakes)) {
    writeFileSync(join(bin, name), `#!/usr/bin/env bash\n${body}\n`);
    chmodSync(join(bin, name), 0o755);
  }
  return spawnSync("bash", [SCRIPT], {
    encoding: "utf8",
    env: { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH}`, APT_RETRY_DELAY: "0" },
  });
}

const dpkgMissing = (missing: string) =>
  `pkg="\${@: -1}"; if [[ "$pkg" == "${missing}" ]]; then echo -n "unknown ok not-installed"; exit 1; fi; echo -n "install ok installed"`;

/** Runs as root with `missing` not installed and `aptGet` as apt-get. */
const asRootWithout = (missing: string, aptGet: string) =>
  runWithFakes({ "dpkg-query": dpkgMissing(missing), "apt-get": aptGet, id: "echo 0" });

describe("scripts/install-system-deps.sh", () => {
  it("given every package installed (this machine), then it does nothing, checks the toolchain and exits 0", () => {
    const result = spawnSync("bash", [SCRIPT], { encoding: "utf8" });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain("nothing to do: all 9 packages are installed");
    expect(result.stdout).toMatch(/toolchain ready: rustc .*, LLVM \d+/);
    expect(result.stdout).toMatch(/browser ready: Chromium \d+/);
  });

  it("given a missing package and apt failing (dpkg lock), then it retries once and exits 1 naming the step", () => {
    const result = asRootWithout(
      "rust-web-llvm",
      'echo "E: Could not get lock /var/lib/dpkg/lock-frontend" >&2; exit 100',
    );
    expect(result.status).toBe(1);
    expect(result.stdout).toContain("missing: rust-web-llvm; running apt-get update");
    expect(result.stdout).toContain("retrying once");
    expect(result.stderr).toContain("error: apt-get update failed");
  });

  it("given apt succeeding but the package still absent, then it exits 1 saying so", () => {
    const result = asRootWithout("cargo-web", "exit 0");
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("cargo-web is still not installed after apt-get install");
  });

  it("given a missing package and no root, then it exits 1 asking for root", () => {
    const result = runWithFakes({ "dpkg-query": dpkgMissing("rustc-web"), id: "echo 1000" });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("missing packages (rustc-web); run as root");
  });
});
