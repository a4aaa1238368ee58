import { BPF_MODULE_HEADER } from "./llvm";

/**
 * A hand-written program that makes llc emit every relocation kind the linker handles, for the
 * linker's unit and LiteSVM tests:
 * - R_BPF_64_64: lddw of `@greeting` (rodata) and of the `@ops`/`@tail_ptr` tables (.data.rel.ro);
 * - R_BPF_64_32 to a syscall (`sol_log_`, `sol_log_64_`), to a global function in another text
 *   section (`@far_global`) and to an internal one there (`@far_local`, via the section symbol
 *   with the offset in imm);
 * - R_BPF_64_ABS64: function pointers in `@ops` (callx through them) and a data pointer with an
 *   addend in `@tail_ptr`;
 * - R_BPF_64_ABS32: `@greeting_offset`, a truncated address.
 *
 * Instruction data: [op index u8][x u64 LE]. Logs "hello, rodata", "tail", then
 * sol_log_64_(ops[op](x), +100, +1000, greeting_offset, 0).
 */
export const LINK_FIXTURE = `${BPF_MODULE_HEADER}
@greeting = internal unnamed_addr constant [13 x i8] c"hello, rodata", align 1
@tail = internal unnamed_addr constant [6 x i8] c"XXtail", align 1
@tail_ptr = internal constant ptr getelementptr (i8, ptr @tail, i64 2), align 8
@ops = internal constant [3 x ptr] [ptr @add3, ptr @mul3, ptr @far_local], align 8
@greeting_offset = internal constant i32 trunc (i64 ptrtoint (ptr @greeting to i64) to i32), align 4

define internal i64 @add3(i64 %x) noinline {
  %r = add i64 %x, 3
  ret i64 %r
}

define internal i64 @mul3(i64 %x) noinline {
  %r = mul i64 %x, 3
  ret i64 %r
}

define i64 @far_global(i64 %x) noinline section ".text.far" {
  %r = add i64 %x, 100
  ret i64 %r
}

define internal i64 @far_local(i64 %x) noinline section ".text.far" {
  %r = add i64 %x, 1000
  ret i64 %r
}

define i64 @entrypoint(ptr %input) {
  %op.p = getelementptr i8, ptr %input, i64 16
  %op = load i8, ptr %op.p, align 1
  %idx = zext i8 %op to i64
  %x.p = getelementptr i8, ptr %input, i64 17
  %x = load i64, ptr %x.p, align 1
  call void @sol_log_(ptr @greeting, i64 13)
  %tail = load ptr, ptr @tail_ptr, align 8
  call void @sol_log_(ptr %tail, i64 4)
  %f.p = getelementptr [3 x ptr], ptr @ops, i64 0, i64 %idx
  %f = load ptr, ptr %f.p, align 8
  %r = call i64 %f(i64 %x)
  %g = call i64 @far_global(i64 %r)
  %h = call i64 @far_local(i64 %r)
  %w = load i32, ptr @greeting_offset, align 4
  %wx = zext i32 %w to i64
  call void @sol_log_64_(i64 %r, i64 %g, i64 %h, i64 %wx, i64 0)
  ret i64 0
}

declare void @sol_log_(ptr, i64)
declare void @sol_log_64_(i64, i64, i64, i64, i64)
`;

/** A minimal valid program around one extra line of IR in its entrypoint. */
export function programWith(body: string, globals = "", declarations = ""): string {
  return `${BPF_MODULE_HEADER}${globals}
define i64 @entrypoint(ptr %input) {
${body}
  ret i64 0
}
${declarations}`;
}

export function instructionData(op: number, x: bigint): Uint8Array {
  const data = new Uint8Array(9);
  data[0] = op;
  new DataView(data.buffer).setBigUint64(1, x, true);
  return data;
}
