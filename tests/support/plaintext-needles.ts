/**
 * What a plaintext canary searches for an amount: the API decimal, base units in decimal and hex,
 * the u64's little-endian hex and its low half in base64 (how a leaked amount would be spelled in
 * a response, a row or a log line). The amount is a decimal string of 6 decimals.
 */
export function plaintextNeedles(decimal: string): string[] {
  const base = BigInt(decimal.replace(".", "").replace(/^0+/, ""));
  const le = Buffer.alloc(8);
  le.writeBigUInt64LE(base);
  return [
    decimal,
    base.toString(),
    base.toString(16),
    le.toString("hex"),
    le.subarray(0, 4).toString("base64"),
  ];
}
