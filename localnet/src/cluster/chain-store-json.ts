/**
 * The chain store's value encoding: JSON, with the two kinds of value JSON lacks tagged so they come back
 * as they went in — a bigint as `{"$n": "123"}` (u64 amounts must not round through a double) and
 * bytes as `{"$b": "<base64>"}`. Chain data has no other objects with a `$n` or `$b` key.
 */

/** Encodes `value` (plain data: objects, arrays, strings, numbers, booleans, null, bigint, bytes). */
export function encodeChainStoreJson(value: unknown): Buffer {
  return Buffer.from(
    JSON.stringify(value, (_key, item: unknown) => {
      if (typeof item === "bigint") return { $n: item.toString() };
      if (item instanceof Uint8Array) return { $b: Buffer.from(item).toString("base64") };
      return item;
    }),
  );
}

/** Decodes what `encodeChainStoreJson` wrote. Throws SyntaxError on anything that is not JSON. */
export function decodeChainStoreJson(bytes: Uint8Array): unknown {
  return JSON.parse(
    Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8"),
    (_key, item) => {
      if (item !== null && typeof item === "object" && !Array.isArray(item)) {
        const keys = Object.keys(item);
        if (keys.length === 1 && typeof item.$n === "string") return BigInt(item.$n);
        if (keys.length === 1 && typeof item.$b === "string")
          return new Uint8Array(Buffer.from(item.$b, "base64"));
      }
      return item;
    },
  );
}
