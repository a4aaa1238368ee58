import { describe, expect, it } from "vitest";
import { functionKey, murmur3_32, syscallKey } from "./murmur3";

describe("murmur3_32", () => {
  it("matches the reference MurmurHash3 x86_32 vectors", () => {
    const bytes = (s: string) => new TextEncoder().encode(s);
    expect(murmur3_32(bytes(""))).toBe(0);
    expect(murmur3_32(bytes(""), 1)).toBe(0x514e28b7);
    expect(murmur3_32(bytes("hello"))).toBe(0x248bfa47);
    expect(murmur3_32(bytes("The quick brown fox jumps over the lazy dog"))).toBe(0x2e4ff723);
  });

  it("gives the syscall keys seen in SBPF v0 disassembly (`call 0x207559bd` is sol_log_)", () => {
    expect(syscallKey("entrypoint")).toBe(0x71e3cf81);
    expect(syscallKey("sol_log_")).toBe(0x207559bd);
    expect(syscallKey("sol_log_64_")).toBe(0x5c2a3178);
    expect(syscallKey("sol_memcpy_")).toBe(0x717cc4a3);
    expect(syscallKey("abort")).toBe(0xb6fc1a11);
  });

  it("keys internal call targets by their pc as 8 little-endian bytes", () => {
    expect(functionKey(0)).toBe(murmur3_32(new Uint8Array(8)));
    expect(functionKey(258)).toBe(murmur3_32(Uint8Array.of(2, 1, 0, 0, 0, 0, 0, 0)));
  });
});
