import { INSN_SIZE, OPCODE_CALL, OPCODE_CALLX, OPCODE_LDDW } from "./elf-constants";
import { LinkError } from "./link-error";

/** ja, jeq, jgt, jge, jlt, jle, jset, jne, jsgt, jsge, jslt, jsle (64-bit compares; no JMP32 in v0). */
// biome-ignore format: an opcode table reads best as rows
const JUMP_OPCODES = [
  0x05, 0x15, 0x1d, 0x25, 0x2d, 0x35, 0x3d, 0xa5, 0xad, 0xb5, 0xbd, 0x45, 0x4d, 0x55, 0x5d,
  0x65, 0x6d, 0x75, 0x7d, 0xc5, 0xcd, 0xd5, 0xdd,
];

/** Opcodes the SBPF v0 verifier accepts (solana-sbpf `verifier.rs`, RequisiteVerifier, v0 rows). */
// biome-ignore format: an opcode table reads best as rows
const V0_OPCODES = new Set([
  OPCODE_LDDW,
  // ldx b/h/w/dw, st imm b/h/w/dw, stx b/h/w/dw
  0x71, 0x69, 0x61, 0x79, 0x72, 0x6a, 0x62, 0x7a, 0x73, 0x6b, 0x63, 0x7b,
  // alu32: add sub mul div or and lsh rsh neg mod xor mov arsh le be
  0x04, 0x0c, 0x14, 0x1c, 0x24, 0x2c, 0x34, 0x3c, 0x44, 0x4c, 0x54, 0x5c, 0x64, 0x6c, 0x74, 0x7c,
  0x84, 0x94, 0x9c, 0xa4, 0xac, 0xb4, 0xbc, 0xc4, 0xcc, 0xd4, 0xdc,
  // alu64: add sub mul div or and lsh rsh neg mod xor mov arsh
  0x07, 0x0f, 0x17, 0x1f, 0x27, 0x2f, 0x37, 0x3f, 0x47, 0x4f, 0x57, 0x5f, 0x67, 0x6f, 0x77, 0x7f,
  0x87, 0x97, 0x9f, 0xa7, 0xaf, 0xb7, 0xbf, 0xc7, 0xcf,
  ...JUMP_OPCODES,
  OPCODE_CALL, OPCODE_CALLX, 0x95,
]);

const JUMPS = new Set(JUMP_OPCODES);
/**
 * add32/sub32/mul32 (imm/reg) exist in v0 but sign-extend their 32-bit result, where eBPF — and so
 * LLVM's code generator — zero-extends. llc at -mcpu=v2 never emits ALU32; if a flag change ever
 * made it, programs would compute wrong values silently, so they are refused.
 */
const SIGN_EXTENDING_ALU32 = new Set([0x04, 0x0c, 0x14, 0x1c, 0x24, 0x2c]);
const STORES = new Set([0x72, 0x6a, 0x62, 0x7a, 0x73, 0x6b, 0x63, 0x7b]);
/** div/mod/mov (32/64, imm/reg): BPF cpu v4 reuses them with a non-zero `off` for sdiv/smod/movsx. */
const OFF_MUST_BE_ZERO = new Set([0x34, 0x3c, 0x94, 0x9c, 0xb4, 0xbc, 0x37, 0x3f, 0x97, 0x9f, 0xb7, 0xbf]);

/**
 * Checks the linked `.text` against the rules the SBPF v0 verifier applies at deployment, so a
 * program that LiteSVM's `addProgram` would load unverified (and a real deploy would reject, or
 * worse, that would run with different semantics) fails the build instead: only v0 opcodes, no
 * cpu-v4 `off` encodings, lddw pairs intact, jumps and local calls inside the program and not
 * into the middle of an lddw, registers in range, callx register in `imm`.
 *
 * `locate(pc)` names the function around an instruction for the message.
 * Returns the local call targets (instruction indices), which the loader registers as functions.
 */
export function checkSbpfV0(text: Uint8Array, locate: (pc: number) => string = () => "?"): Set<number> {
  const view = new DataView(text.buffer, text.byteOffset, text.byteLength);
  const count = text.length / INSN_SIZE;
  if (count === 0 || !Number.isInteger(count))
    throw new LinkError("the .text section is empty or not whole instructions");
  const lddwSecondHalves = new Set<number>();
  for (let pc = 0; pc < count; pc++) {
    if (text[pc * INSN_SIZE] === OPCODE_LDDW) lddwSecondHalves.add(++pc);
  }
  const callTargets = new Set<number>();
  const fail = (pc: number, why: string): never => {
    throw new LinkError(`instruction ${pc} in ${locate(pc)} is not valid SBPF v0: ${why}`);
  };
  for (let pc = 0; pc < count; pc++) {
    const at = pc * INSN_SIZE;
    const opcode = text[at] as number;
    const dst = (text[at + 1] as number) & 0x0f;
    const src = (text[at + 1] as number) >> 4;
    const off = view.getInt16(at + 2, true);
    const imm = view.getInt32(at + 4, true);
    if (SIGN_EXTENDING_ALU32.has(opcode))
      fail(pc, `ALU32 opcode 0x${opcode.toString(16)} sign-extends in SBPF v0 (eBPF zero-extends)`);
    if (!V0_OPCODES.has(opcode)) fail(pc, `opcode 0x${opcode.toString(16)} does not exist in SBPF v0`);
    if (OFF_MUST_BE_ZERO.has(opcode) && off !== 0)
      fail(pc, `opcode 0x${opcode.toString(16)} with off=${off} (BPF cpu v4)`);
    if (src > 10) fail(pc, `source register r${src}`);
    if (dst > 10 || (dst === 10 && !STORES.has(opcode))) fail(pc, `destination register r${dst}`);
    if (opcode === OPCODE_LDDW) {
      if (pc + 1 >= count || text[(pc + 1) * INSN_SIZE] !== 0) fail(pc, "lddw without its second half");
      pc++;
      continue;
    }
    if (JUMPS.has(opcode)) {
      const target = pc + 1 + off;
      if (off === -1) fail(pc, "jump to itself");
      if (target < 0 || target >= count) fail(pc, `jump target ${target} outside the program`);
      if (lddwSecondHalves.has(target)) fail(pc, "jump into the middle of an lddw");
    }
    if (opcode === OPCODE_CALL && imm !== -1) {
      const target = pc + 1 + imm;
      if (target < 0 || target >= count || lddwSecondHalves.has(target))
        fail(pc, `call target ${target} outside the program`);
      callTargets.add(target);
    }
    if (opcode === OPCODE_CALLX && (imm < 0 || imm > 9))
      fail(pc, `callx register ${imm} (expected r0..r9 in imm)`);
  }
  return callTargets;
}
