/**
 * A textual LLVM IR module (the output of `llvm-dis`) split just enough for line-based passes:
 * function definitions (header line, body lines, closing brace) and everything else kept
 * verbatim. Passes edit lines in place; printing joins them back, so untouched parts of the
 * module are byte-identical and the result stays deterministic.
 */
export interface IrFunction {
  kind: "function";
  name: string;
  /** The `define ... {` line. */
  header: string;
  /** Lines between the header and the closing `}`. */
  body: string[];
}

export interface IrText {
  kind: "text";
  lines: string[];
}

export type IrChunk = IrFunction | IrText;

export interface IrModule {
  chunks: IrChunk[];
  /** Lines appended at the end by passes (helper declarations). */
  appended: string[];
}

/** Matches `@name` or `@"quoted name"` references to globals and functions. */
export const GLOBAL_REFERENCE = /@("(?:[^"\\]|\\.)*"|[-a-zA-Z$._0-9]+)/g;

/** Splits `llvm-dis` output into functions and other text. */
export function parseIrModule(text: string): IrModule {
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  const chunks: IrChunk[] = [];
  let pending: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (!line.startsWith("define ")) {
      pending.push(line);
      continue;
    }
    if (pending.length > 0) chunks.push({ kind: "text", lines: pending });
    pending = [];
    const name = functionNameOf(line);
    if (!line.trimEnd().endsWith("{")) {
      throw new Error(`unexpected function header (no opening brace on the define line): ${line}`);
    }
    const body: string[] = [];
    i++;
    while (i < lines.length && lines[i] !== "}") body.push(lines[i++] as string);
    if (i >= lines.length) throw new Error(`unterminated function @${name}`);
    chunks.push({ kind: "function", name, header: line, body });
  }
  if (pending.length > 0) chunks.push({ kind: "text", lines: pending });
  return { chunks, appended: [] };
}

export function printIrModule(module: IrModule): string {
  const out: string[] = [];
  for (const chunk of module.chunks) {
    if (chunk.kind === "text") out.push(...chunk.lines);
    else out.push(chunk.header, ...chunk.body, "}");
  }
  if (module.appended.length > 0) out.push("", ...module.appended);
  return `${out.join("\n")}\n`;
}

/** The symbol name of a `define`/`declare` line, without `@` and quotes. */
export function functionNameOf(line: string): string {
  const match = line.match(/@("(?:[^"\\]|\\.)*"|[-a-zA-Z$._0-9]+)\(/);
  if (!match?.[1]) throw new Error(`no function name in: ${line}`);
  return unquoteName(match[1]);
}

export function unquoteName(token: string): string {
  return token.startsWith('"') ? token.slice(1, -1) : token;
}

/** `@name` as it must be written in IR (quoted when it has characters outside the bare set). */
export function globalRef(name: string): string {
  return /^[-a-zA-Z$._][-a-zA-Z$._0-9]*$/.test(name) ? `@${name}` : `@"${name}"`;
}

export function functions(module: IrModule): IrFunction[] {
  return module.chunks.filter((c): c is IrFunction => c.kind === "function");
}

/**
 * Expands instructions in place: each line of a function body for which `expand` returns lines
 * is replaced by them (indented as it was), every other line stays. Returns how many lines were
 * expanded.
 */
export function expandLines(module: IrModule, expand: (line: string) => string[] | undefined): number {
  let expanded = 0;
  for (const chunk of functions(module)) {
    chunk.body = chunk.body.flatMap((line) => {
      const lines = expand(line);
      if (lines === undefined) return [line];
      expanded++;
      const indent = line.match(/^\s*/)?.[0] ?? "";
      return lines.map((l) => `${indent}${l}`);
    });
  }
  return expanded;
}

/** True when the module defines or declares a function or global with this name. */
export function hasSymbol(module: IrModule, name: string): boolean {
  const ref = globalRef(name);
  for (const chunk of module.chunks) {
    if (chunk.kind === "function") {
      if (chunk.name === name) return true;
      continue;
    }
    for (const line of chunk.lines) {
      if (line.startsWith("declare ") && functionNameOf(line) === name) return true;
      if (line.startsWith(`${ref} =`)) return true;
    }
  }
  return module.appended.some((line) => line.startsWith("declare ") && functionNameOf(line) === name);
}

/** Adds `declaration` unless the module already has a symbol of that name (whatever its type). */
export function ensureDeclaration(module: IrModule, name: string, declaration: string): void {
  if (!hasSymbol(module, name)) module.appended.push(declaration);
}

/**
 * Hands out local value names that cannot collide with rustc's (numbered or Rust-named) values.
 * One counter per module keeps the output deterministic.
 */
export class FreshNames {
  private next = 0;
  local(hint: string): string {
    return `%__sbf.${hint}.${this.next++}`;
  }
}

/** Splits `a, b(c, d), {e, f}` on top-level commas, respecting brackets and quotes. */
export function splitTopLevel(text: string, separator = ","): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === "\\") i++;
      else if (ch === '"') quoted = false;
      continue;
    }
    if (ch === '"') quoted = true;
    else if (ch === "(" || ch === "[" || ch === "{" || ch === "<") depth++;
    else if (ch === ")" || ch === "]" || ch === "}" || ch === ">") depth--;
    else if (ch === separator && depth === 0) {
      parts.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  const last = text.slice(start).trim();
  if (last.length > 0 || parts.length > 0) parts.push(last);
  return parts;
}

/** Index just past the bracket that closes the one at `open` (which must be `(`, `[`, `{`). */
export function matchingBracket(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const ch = text[i];
    if (ch === "(" || ch === "[" || ch === "{" || ch === "<") depth++;
    else if (ch === ")" || ch === "]" || ch === "}" || ch === ">") {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  throw new Error(`unbalanced brackets in: ${text}`);
}

const VALUE_KEYWORDS = new Set([
  "null",
  "poison",
  "undef",
  "true",
  "false",
  "zeroinitializer",
  "getelementptr",
  "ptrtoint",
  "inttoptr",
  "bitcast",
  "addrspacecast",
  "trunc",
]);

/**
 * Splits one call argument (`ptr noundef nonnull align 8 %3`) into its type and its value,
 * dropping parameter attributes. Values are what starts with `%`, `@`, a digit or `-`, or a
 * constant keyword; `align N` is the one attribute whose operand looks like a value.
 */
export function parseArgument(argument: string): { type: string; value: string } {
  const firstSpace = argument.indexOf(" ");
  if (firstSpace < 0) throw new Error(`argument without a value: ${argument}`);
  const type = argument.slice(0, firstSpace);
  let rest = argument.slice(firstSpace + 1).trim();
  for (;;) {
    const word = rest.match(/^[a-z_]+/)?.[0];
    if (!word || VALUE_KEYWORDS.has(word)) break;
    if (rest[word.length] === "(") {
      rest = rest.slice(matchingBracket(rest, word.length)).trim();
    } else if (word === "align") {
      rest = rest.replace(/^align\s+\d+/, "").trim();
    } else {
      rest = rest.slice(word.length).trim();
    }
  }
  if (rest.length === 0) throw new Error(`argument without a value: ${argument}`);
  return { type, value: rest };
}

/**
 * A call instruction split into its parts: `%r = tail call <ret> @callee(<args>)<suffix>`.
 * Returns undefined when the line is not a direct call of `callee`.
 */
export interface ParsedCall {
  indent: string;
  result: string | undefined;
  returnType: string;
  callee: string;
  args: string[];
  /** Everything after the closing parenthesis (attribute groups, metadata). */
  suffix: string;
}

export function parseCall(line: string, calleePattern: RegExp): ParsedCall | undefined {
  const head = line.match(
    /^(\s*)(?:(%[-a-zA-Z$._0-9]+|%"[^"]*") = )?(?:(?:tail|musttail|notail) )?call (?:[a-z_]+(?:\([^)]*\))? )*?(.+?) @("(?:[^"\\]|\\.)*"|[-a-zA-Z$._0-9]+)\(/,
  );
  if (!head) return undefined;
  const callee = unquoteName(head[4] as string);
  if (!calleePattern.test(callee)) return undefined;
  const open = (head.index ?? 0) + head[0].length - 1;
  const close = matchingBracket(line, open);
  return {
    indent: head[1] ?? "",
    result: head[2],
    returnType: head[3] as string,
    callee,
    args: splitTopLevel(line.slice(open + 1, close - 1)),
    suffix: line.slice(close),
  };
}
