import { type IrModule, matchingBracket } from "./ir-module";

/**
 * Removes `sret(<type>)` parameter attributes from definitions, declarations and call sites.
 *
 * Rust returns large values through a hidden first pointer argument marked `sret`; the BPF
 * backend rejects any function carrying the attribute ("aggregate returns are not supported").
 * The attribute only tells a backend it may also hand the pointer back in the return register;
 * without it the pointer is still passed as an ordinary first argument in r1 and the callee
 * still writes through it, so caller and callee keep the same ABI. Every occurrence is removed —
 * definitions and all call sites, including indirect calls through vtables — so nothing can
 * disagree.
 */
export function stripSret(module: IrModule): { rewritten: number } {
  let rewritten = 0;
  const rewrite = (line: string) => {
    if (!line.includes("sret(")) return line;
    const stripped = removeSret(line);
    if (stripped !== line) rewritten++;
    return stripped;
  };
  for (const chunk of module.chunks) {
    if (chunk.kind === "function") {
      chunk.header = rewrite(chunk.header);
      chunk.body = chunk.body.map(rewrite);
    } else {
      chunk.lines = chunk.lines.map((line) => (line.startsWith("declare ") ? rewrite(line) : line));
    }
  }
  return { rewritten };
}

/** Removes every ` sret(...)` attribute (with balanced brackets inside) from one line. */
export function removeSret(line: string): string {
  let out = line;
  for (;;) {
    const at = out.search(/\bsret\(/);
    if (at < 0) return out;
    const end = matchingBracket(out, at + "sret".length);
    const before = out.slice(0, at).replace(/ $/, "");
    out = before + out.slice(end);
  }
}
