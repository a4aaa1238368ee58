/**
 * MurmurHash3 x86 32-bit, seed 0 — the hash solana-sbpf (`ebpf::hash_symbol_name`) uses to turn
 * syscall names and, for SBPF v0, bpf-to-bpf call targets (the target pc as 8 little-endian
 * bytes) into the 32-bit keys of `call imm`. The linker uses it to catch a function/syscall key
 * collision the loader would reject at deploy time ("Symbol hash collision").
 */
export function murmur3_32(bytes: Uint8Array, seed = 0): number {
  const c1 = 0xcc9e2d51;
  const c2 = 0x1b873593;
  let h = seed >>> 0;
  const blocks = bytes.length >>> 2;
  for (let i = 0; i < blocks; i++) {
    const at = i * 4;
    let k =
      ((bytes[at] as number) |
        ((bytes[at + 1] as number) << 8) |
        ((bytes[at + 2] as number) << 16) |
        ((bytes[at + 3] as number) << 24)) >>>
      0;
    k = Math.imul(k, c1);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, c2);
    h ^= k;
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) >>> 0;
  }
  const tail = blocks * 4;
  const remaining = bytes.length & 3;
  if (remaining > 0) {
    let k = 0;
    for (let i = remaining - 1; i >= 0; i--) k = (k << 8) | (bytes[tail + i] as number);
    k = Math.imul(k, c1);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, c2);
    h ^= k;
  }
  h ^= bytes.length;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Key of a syscall name as the loader registers it. */
export function syscallKey(name: string): number {
  return murmur3_32(new TextEncoder().encode(name));
}

/** Key the SBPF v0 loader assigns to an internal call target (instruction index `pc`). */
export function functionKey(pc: number): number {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigUint64(0, BigInt(pc), true);
  return murmur3_32(bytes);
}
