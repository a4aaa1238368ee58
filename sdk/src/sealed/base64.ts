/**
 * Standard padded base64 without Node's Buffer (this entry runs in browsers). Decoding is strict: a
 * string that does not re-encode to itself is refused, so two strings never name the same bytes.
 */

export function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** The bytes of canonical standard base64, else null. */
export function fromStrictBase64(text: string): Uint8Array | null {
  if (typeof text !== "string" || text.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return null;
  let binary: string;
  try {
    binary = atob(text);
  } catch {
    return null;
  }
  const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
  return toBase64(bytes) === text ? bytes : null;
}
