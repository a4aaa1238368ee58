import { INSN_SIZE, OPCODE_CALLX, OPCODE_LDDW } from "./elf-constants";
import { LinkError } from "./link-error";

/**
 * Moves the target register of every `callx` (opcode 0x8d) from `dst_reg` to `imm`.
 *
 * Upstream LLVM encodes `callx rN` with N in dst_reg and imm = 0. SBPF v0's interpreter and JIT
 * (solana-sbpf `interpreter.rs`, CALL_REG) read the register from `imm` (v2 reads src, v3+ dst),
 * and the verifier checks `imm` in 0..=9. Left as is, every indirect call — `dyn Trait`,
 * function pointers, `core::fmt` — would jump through r0 ("callx attempted to call outside of
 * the text segment"). dst_reg is cleared so the encoding matches what platform-tools emits.
 *
 * Returns how many instructions were rewritten.
 */
export function fixCallxEncoding(text: Uint8Array): number {
  const view = new DataView(text.buffer, text.byteOffset, text.byteLength);
  let rewritten = 0;
  for (let at = 0; at + INSN_SIZE <= text.length; at += INSN_SIZE) {
    const opcode = text[at];
    if (opcode === OPCODE_LDDW) {
      at += INSN_SIZE; // second half of the 16-byte instruction
      continue;
    }
    if (opcode !== OPCODE_CALLX) continue;
    const registers = text[at + 1] as number;
    const dst = registers & 0x0f;
    const imm = view.getInt32(at + 4, true);
    if (dst === 0) continue; // `callx r0`, or already in SBPF form
    if (imm !== 0 && imm !== dst) {
      throw new LinkError(
        `callx at instruction ${at / INSN_SIZE} names two registers (dst r${dst}, imm ${imm})`,
      );
    }
    view.setInt32(at + 4, dst, true);
    text[at + 1] = registers & 0xf0;
    rewritten++;
  }
  return rewritten;
}
