/**
 * Best-effort readable names for error messages: Rust legacy mangling (`_ZN...17h<hash>E`) is
 * decoded to `crate::module::item`; anything else (v0 `_R` names, C names) is returned as is.
 * Only ever used to explain a failure, never to look symbols up.
 */
export function demangle(symbol: string): string {
  if (!symbol.startsWith("_ZN") || !symbol.endsWith("E")) return symbol;
  const parts: string[] = [];
  let i = 3;
  while (i < symbol.length - 1) {
    const digits = symbol.slice(i).match(/^\d+/)?.[0];
    if (!digits) return symbol;
    const length = Number(digits);
    i += digits.length;
    parts.push(symbol.slice(i, i + length));
    i += length;
  }
  if (parts.length > 1 && /^h[0-9a-f]{16}$/.test(parts.at(-1) ?? "")) parts.pop();
  return parts.map(decodeComponent).join("::");
}

const ESCAPES: Record<string, string> = {
  SP: "@",
  BP: "*",
  RF: "&",
  LT: "<",
  GT: ">",
  LP: "(",
  RP: ")",
  C: ",",
};

function decodeComponent(part: string): string {
  return part
    .replace(/^_\$/, "$")
    .replace(/\$([A-Z]{1,2})\$/g, (whole, code: string) => ESCAPES[code] ?? whole)
    .replace(/\$u([0-9a-f]{2,6})\$/g, (_, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16)))
    .replaceAll("..", "::");
}
