/**
 * The layers of api/src, read from the code's own imports (api/README.md, "Layout"):
 * - core/ (the service context, configuration, errors, logger) imports nothing of api/src outside core/;
 * - the feature folders (transfers/, agents/, ...) hold the use cases and never import http/, the
 *   door that maps routes to them: only http/ itself and the composition root (the files at the top
 *   of api/src: main.ts, service.ts, jobs.ts, index.ts) import http/;
 * - no file reaches itself through its imports (a circle), type-only imports included.
 * Every relative import counts: `import ... from`, `export ... from`, a bare `import "..."` and
 * `import("...")` with a literal path; one this reader cannot place fails the test rather than
 * being skipped. Tests count too: a test sits in the layer of the code it tests.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

/** File (relative to the root, `/`-separated) -> the files it imports. */
type ImportGraph = ReadonlyMap<string, readonly string[]>;

const STATIC = /^\s*(?:import|export)\b[^;]*?\bfrom\s*["'](\.[^"']*)["']/gm;
const BARE = /^\s*import\s*["'](\.[^"']*)["']/gm;
const DYNAMIC = /\bimport\(\s*["'](\.[^"']*)["']\s*\)/g;

/** The relative specifiers `text` imports, comments left out. */
function specifiersOf(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  return [STATIC, BARE, DYNAMIC].flatMap((pattern) =>
    [...code.matchAll(pattern)].map((match) => match[1] as string),
  );
}

function sourceFilesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFilesUnder(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

function resolveImport(root: string, from: string, specifier: string): string {
  const base = resolve(dirname(join(root, from)), specifier);
  const found = [`${base}.ts`, `${base}.tsx`, join(base, "index.ts"), base].find(
    (candidate) => statSync(candidate, { throwIfNoEntry: false })?.isFile() === true,
  );
  if (found === undefined) throw new Error(`${from}: cannot place the import "${specifier}"`);
  return relative(root, found).split("\\").join("/");
}

/** The graph of every file under `root` but `leaveOut` (this file: its made-up trees are strings). */
function importGraphOf(root: string, leaveOut?: string): ImportGraph {
  const graph = new Map<string, string[]>();
  for (const path of sourceFilesUnder(root)) {
    if (path === leaveOut) continue;
    const file = relative(root, path).split("\\").join("/");
    const specifiers = specifiersOf(readFileSync(path, "utf8"));
    graph.set(file, [...new Set(specifiers.map((specifier) => resolveImport(root, file, specifier)))]);
  }
  return graph;
}

/** Every circle: the files of each strongly connected component of two or more, or importing itself (Tarjan). */
function circlesOf(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file) as number);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file) as number, low.get(next) as number));
      } else if (onStack.has(next)) {
        low.set(file, Math.min(low.get(file) as number, index.get(next) as number));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || (graph.get(file) ?? []).includes(file)) circles.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return circles;
}

/** `core`, `http`, `root` (a file at the top: the composition root) or the feature folder's name. */
function layerOf(file: string): string {
  const slash = file.indexOf("/");
  return slash === -1 ? "root" : file.slice(0, slash);
}

/** Each import that breaks a rule of the layers, as `importer -> imported`. */
function breachesOf(graph: ImportGraph): { readonly core: string[]; readonly http: string[] } {
  const core: string[] = [];
  const http: string[] = [];
  for (const [file, imports] of graph) {
    const layer = layerOf(file);
    for (const imported of imports) {
      const target = layerOf(imported);
      if (layer === "core" && target !== "core") core.push(`${file} -> ${imported}`);
      if (target === "http" && layer !== "http" && layer !== "root") http.push(`${file} -> ${imported}`);
    }
  }
  return { core, http };
}

describe("the reader of imports", () => {
  const root = mkdtempSync(join(tmpdir(), "cpay-import-graph-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const write = (file: string, text: string) => {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), text);
  };

  it("Given a made-up tree with a circle, a feature importing http/ and core/ importing a feature, When it is read, Then each is found", () => {
    write(
      "core/context.ts",
      'import type {\n  Fee,\n} from "../transfers/fee";\nexport type Context = Fee;\n',
    );
    write("transfers/fee.ts", 'import { ApiError } from "../http/api-error";\nexport type Fee = ApiError;\n');
    write("transfers/plan.ts", 'export { quote } from "./quote";\n// import "../http/not-read";\n');
    write("transfers/quote.ts", 'import "./plan";\nexport const quote = () => import("./plan");\n');
    write("http/api-error.ts", '/** import { x } from "./nowhere"; */\nexport class ApiError {}\n');
    write("service.ts", 'import { ApiError } from "./http/api-error";\nexport { ApiError };\n');

    const graph = importGraphOf(root);

    expect(graph.get("transfers/plan.ts")).toEqual(["transfers/quote.ts"]);
    expect(circlesOf(graph)).toEqual([["transfers/plan.ts", "transfers/quote.ts"]]);
    expect(breachesOf(graph)).toEqual({
      core: ["core/context.ts -> transfers/fee.ts"],
      http: ["transfers/fee.ts -> http/api-error.ts"],
    });
  });

  it("Given an import of a file that is not there, When it is read, Then it is refused rather than skipped", () => {
    write("keys/lost.ts", 'import { gone } from "./gone";\nexport { gone };\n');

    expect(() => importGraphOf(root)).toThrow('keys/lost.ts: cannot place the import "./gone"');
  });
});

describe("the layers of api/src", () => {
  const graph = importGraphOf(import.meta.dirname, import.meta.filename);

  it("Given every file of api/src, When its imports are followed, Then no file reaches itself", () => {
    expect(graph.size).toBeGreaterThan(200);
    expect(circlesOf(graph)).toEqual([]);
  });

  it("Given core/, When its imports are read, Then it imports nothing of api/src outside core/", () => {
    expect(breachesOf(graph).core).toEqual([]);
  });

  it("Given the feature folders, When their imports are read, Then none imports http/ (only http/ and the composition root do)", () => {
    expect(breachesOf(graph).http).toEqual([]);
  });
});
