import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";

/**
 * The git tree hash of a crate's *working-tree* content: the hash `git rev-parse HEAD:<crate>`
 * will print once exactly these files are committed. The build record stores it, so a committed
 * `.so` can be matched to the commit of its sources, and `verify` can tell stale output (sources
 * changed) from a non-reproducible build — committed or not, without touching git's index or
 * object store.
 *
 * Files are the ones git would take (`git ls-files --cached --others --exclude-standard`, so
 * `target/` and other ignored output are out); outside a git checkout, every file but `target/`.
 * Content is hashed as stored (no .gitattributes filters), which is what a crate of Rust sources
 * and a Cargo.toml needs.
 */
export function sourceTreeHash(crateDir: string): string {
  const files = listFiles(crateDir);
  const root: Tree = new Map();
  for (const path of files) {
    const parts = path.split("/");
    let node = root;
    for (const dir of parts.slice(0, -1)) {
      let child = node.get(dir);
      if (!(child instanceof Map)) {
        child = new Map();
        node.set(dir, child);
      }
      node = child;
    }
    node.set(parts.at(-1) as string, path);
  }
  return hashTree(root, crateDir).toString("hex");
}

type Tree = Map<string, Tree | string>;

function hashTree(tree: Tree, base: string): Buffer {
  const entries = [...tree.entries()].map(([name, value]) => {
    if (value instanceof Map)
      return { name, sortKey: `${name}/`, mode: "40000", hash: hashTree(value, base) };
    const full = join(base, value);
    const stat = lstatSync(full);
    if (stat.isSymbolicLink())
      return {
        name,
        sortKey: name,
        mode: "120000",
        hash: gitObject("blob", Buffer.from(readlinkSync(full))),
      };
    const mode = stat.mode & 0o111 ? "100755" : "100644";
    return { name, sortKey: name, mode, hash: gitObject("blob", readFileSync(full)) };
  });
  // git orders tree entries bytewise, with directory names compared as if they ended in '/'.
  entries.sort((a, b) => Buffer.compare(Buffer.from(a.sortKey), Buffer.from(b.sortKey)));
  const body = Buffer.concat(entries.flatMap((e) => [Buffer.from(`${e.mode} ${e.name}\0`), e.hash]));
  return gitObject("tree", body);
}

function gitObject(type: "blob" | "tree", content: Buffer): Buffer {
  return createHash("sha1").update(`${type} ${content.length}\0`).update(content).digest();
}

function listFiles(crateDir: string): string[] {
  const git = spawnSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", "."], {
    cwd: crateDir,
    encoding: "utf8",
  });
  if (git.status === 0) {
    return [
      ...new Set(git.stdout.split("\0").filter((p) => p.length > 0 && existsSync(join(crateDir, p)))),
    ].sort();
  }
  const walk = (dir: string, prefix: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      if (entry.name === "target" || entry.name === ".git") return [];
      const path = prefix ? `${prefix}/${entry.name}` : entry.name;
      return entry.isDirectory() ? walk(join(dir, entry.name), path) : [path];
    });
  return walk(crateDir, "").sort();
}
