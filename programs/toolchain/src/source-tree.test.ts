import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sourceTreeHash } from "./source-tree";
import { tempDir } from "./testing/llvm";

function git(cwd: string, ...args: string[]): string {
  const result = spawnSync("git", ["-c", "user.name=test", "-c", "user.email=test@example.com", ...args], {
    cwd,
    encoding: "utf8",
  });
  if (result.status !== 0) throw new Error(result.stderr);
  return result.stdout.trim();
}

describe("sourceTreeHash", () => {
  it("given a crate in a git checkout, then it equals the tree git commits for it, before and after the commit", () => {
    const repo = tempDir();
    const crate = join(repo, "programs", "crate");
    mkdirSync(join(crate, "src", "instructions"), { recursive: true });
    mkdirSync(join(crate, "target", "release"), { recursive: true });
    writeFileSync(join(repo, ".gitignore"), "target/\n");
    writeFileSync(join(crate, "Cargo.toml"), '[package]\nname = "crate"\n');
    writeFileSync(join(crate, "src", "lib.rs"), "pub mod instructions;\n");
    writeFileSync(join(crate, "src", "instructions", "mod.rs"), "// handlers\n");
    writeFileSync(join(crate, "src.rs"), "// sorts after src/ in git order\n");
    writeFileSync(join(crate, "build.sh"), "#!/bin/sh\n");
    chmodSync(join(crate, "build.sh"), 0o755);
    writeFileSync(join(crate, "target", "release", "out.a"), "ignored build output");
    git(repo, "init", "-q");

    const uncommitted = sourceTreeHash(crate);
    git(repo, "add", "-A");
    git(repo, "commit", "-q", "-m", "crate");

    expect(uncommitted).toBe(git(repo, "rev-parse", "HEAD:programs/crate"));
    expect(sourceTreeHash(crate)).toBe(uncommitted);

    writeFileSync(join(crate, "src", "lib.rs"), "pub mod instructions; // edited\n");
    expect(sourceTreeHash(crate)).not.toBe(uncommitted);
  });
});
