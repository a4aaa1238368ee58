/**
 * JSON serialization that writes bigint as a bare JSON number.
 *
 * Solana sends u64 values (lamports, slots, `rentEpoch` = u64::MAX) as JSON numbers even past 2^53;
 * @solana/kit parses every number back into a bigint, so writing them as numbers (not strings) is
 * what keeps values exact and shapes identical to a real validator. `JSON.stringify` cannot do
 * this, hence a small writer of our own. `undefined` members are omitted, as JSON.stringify does.
 */
export function stringifyJson(value: unknown): string {
  switch (typeof value) {
    case "bigint":
      return value.toString();
    case "number":
      return Number.isFinite(value) ? String(value) : "null";
    case "string":
      return JSON.stringify(value);
    case "boolean":
      return value ? "true" : "false";
    case "object": {
      if (value === null) return "null";
      if (Array.isArray(value)) {
        return `[${value.map((item) => (item === undefined ? "null" : stringifyJson(item))).join(",")}]`;
      }
      const members: string[] = [];
      for (const [key, member] of Object.entries(value)) {
        if (member !== undefined) members.push(`${JSON.stringify(key)}:${stringifyJson(member)}`);
      }
      return `{${members.join(",")}}`;
    }
    default:
      return "null";
  }
}
