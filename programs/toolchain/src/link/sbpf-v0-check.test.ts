import { describe, expect, it } from "vitest";
import { fixCallxEncoding } from "./callx";
import { checkSbpfV0 } from "./sbpf-v0-check";

/** Encodes instructions as [opcode, dst, src, off, imm]. */
function program(...instructions: [number, number, number, number, number][]): Uint8Array {
  const bytes = new Uint8Array(instructions.length * 8);
  const view = new DataView(bytes.buffer);
  instructions.forEach(([opcode, dst, src, off, imm], i) => {
    bytes[i * 8] = opcode;
    bytes[i * 8 + 1] = (src << 4) | dst;
    view.setInt16(i * 8 + 2, off, true);
    view.setInt32(i * 8 + 4, imm, true);
  });
  return bytes;
}

const EXIT: [number, number, number, number, number] = [0x95, 0, 0, 0, 0];

describe("checkSbpfV0", () => {
  it("given valid v0 code with a local call, an lddw and a jump, then it passes and reports the call target", () => {
    const code = program(
      [0x85, 0, 1, 0, 3], // call +3 -> pc 4
      [0x18, 1, 0, 0, 42], // lddw r1, 42
      [0x00, 0, 0, 0, 0],
      [0x15, 1, 0, 0, 0], // if r1 == 0 goto +0
      [0xb7, 0, 0, 0, 0], // r0 = 0
      EXIT,
    );
    expect([...checkSbpfV0(code)]).toEqual([4]);
  });

  it.each([
    ["a JMP32 compare (cpu v3)", program([0x16, 1, 0, 0, 0], EXIT), /opcode 0x16 does not exist/],
    ["a sign-extending ALU32 add", program([0x04, 1, 0, 0, 1], EXIT), /sign-extends in SBPF v0/],
    ["a cpu v4 signed division (div with off=1)", program([0x3f, 1, 2, 1, 0], EXIT), /off=1 \(BPF cpu v4\)/],
    ["an atomic add (XADD)", program([0xdb, 1, 2, 0, 0], EXIT), /opcode 0xdb/],
    ["an lddw without its second half", program([0x18, 1, 0, 0, 0], EXIT), /lddw without its second half/],
    ["a jump past the end", program([0x05, 0, 0, 5, 0], EXIT), /jump target 6 outside the program/],
    [
      "a jump into an lddw",
      program([0x05, 0, 0, 1, 0], [0x18, 1, 0, 0, 0], [0, 0, 0, 0, 0], EXIT),
      /middle of an lddw/,
    ],
    ["a write to r10", program([0xb7, 10, 0, 0, 0], EXIT), /destination register r10/],
    ["callx with the register left in dst", program([0x8d, 0, 0, 0, 12], EXIT), /callx register 12/],
  ])("given %s, then it is refused", (_, code, message) => {
    expect(() => checkSbpfV0(code, () => "`f`")).toThrow(message);
  });
});

describe("fixCallxEncoding", () => {
  it("given upstream callx r3 (dst=3, imm=0), then imm=3 and dst=0; lddw payloads are skipped", () => {
    const code = program([0x18, 1, 0, 0, 0], [0x00, 0, 0, 0, 0x8d], [0x8d, 3, 0, 0, 0], EXIT);

    expect(fixCallxEncoding(code)).toBe(1);
    expect([...code.subarray(16, 24)]).toEqual([0x8d, 0, 0, 0, 3, 0, 0, 0]);
    expect(code[12]).toBe(0x8d); // second half of the lddw untouched
    expect(() => checkSbpfV0(code)).not.toThrow();
  });
});
