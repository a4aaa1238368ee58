import { GLOBAL_REFERENCE, type IrModule, unquoteName } from "./ir-module";

/**
 * What the program can actually execute or read: everything transitively referenced from the
 * roots (the `entrypoint` the loader calls, plus `llvm.*` globals such as `llvm.used`, plus
 * anything metadata points at, which must stay defined for the module to parse).
 *
 * A staticlib archive can carry code that no path from `entrypoint` reaches (a crate built
 * without LTO keeps its whole public API; `core`/`compiler_builtins` members carry i128 and float
 * routines). Only reachable code is refused or handed to llc.
 */
export interface Reachability {
  reachable: Set<string>;
  /** For each reachable symbol other than a root, the symbol that first referenced it. */
  parent: Map<string, string>;
  roots: string[];
}

export function computeReachability(module: IrModule, entryRoots: readonly string[]): Reachability {
  const references = new Map<string, string[]>();
  const defined = new Set<string>();
  const roots = [...entryRoots];

  for (const chunk of module.chunks) {
    if (chunk.kind === "function") {
      defined.add(chunk.name);
      references.set(chunk.name, referencesIn([chunk.header, ...chunk.body], chunk.name));
      continue;
    }
    for (const line of chunk.lines) {
      const global = globalDefinitionName(line);
      if (global !== undefined) {
        defined.add(global);
        references.set(global, referencesIn([line], global));
        if (global.startsWith("llvm.")) roots.push(global);
      } else if (line.startsWith("!")) {
        roots.push(...referencesIn([line], ""));
      }
    }
  }

  for (const root of entryRoots) {
    if (!defined.has(root)) {
      throw new Error(
        `the module defines no \`${root}\` function: the crate must export ` +
          `\`#[no_mangle] pub unsafe extern "C" fn ${root}(input: *mut u8) -> u64\``,
      );
    }
  }

  const reachable = new Set<string>();
  const parent = new Map<string, string>();
  const queue = [...new Set(roots)];
  for (const root of queue) reachable.add(root);
  while (queue.length > 0) {
    const current = queue.shift() as string;
    for (const target of references.get(current) ?? []) {
      if (reachable.has(target)) continue;
      reachable.add(target);
      parent.set(target, current);
      queue.push(target);
    }
  }
  return { reachable, parent, roots: [...new Set(roots)] };
}

/** `entrypoint -> a -> b`, the first reference chain that made `symbol` reachable. */
export function referenceChain(reachability: Reachability, symbol: string): string[] {
  const chain = [symbol];
  let current = symbol;
  while (reachability.parent.has(current) && chain.length < 64) {
    current = reachability.parent.get(current) as string;
    chain.unshift(current);
  }
  return chain;
}

/** Name defined by a top-level `@name = ...` line (global variable or alias), if any. */
export function globalDefinitionName(line: string): string | undefined {
  const match = line.match(/^@("(?:[^"\\]|\\.)*"|[-a-zA-Z$._0-9]+) = /);
  return match?.[1] === undefined ? undefined : unquoteName(match[1]);
}

function referencesIn(lines: readonly string[], self: string): string[] {
  const found = new Set<string>();
  for (const line of lines) {
    // Comments (`; preds = ...`) never hold symbol references worth following, but string
    // constants can contain '@'; those only add false edges, which keeps more code, never less.
    const code = stripComment(line);
    for (const match of code.matchAll(GLOBAL_REFERENCE)) {
      const name = unquoteName(match[1] as string);
      if (name !== self) found.add(name);
    }
  }
  return [...found];
}

function stripComment(line: string): string {
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (ch === '"') quoted = !quoted;
    else if (ch === ";" && !quoted) return line.slice(0, i);
  }
  return line;
}
