import {
  ensureDeclaration,
  expandLines,
  type FreshNames,
  type IrModule,
  parseArgument,
  parseCall,
} from "./ir-module";

/**
 * Constant-length copies/fills up to this many bytes stay `llvm.mem*` intrinsics, which llc
 * expands into loads/stores; longer or run-time lengths become the `sol_mem*_` syscalls.
 *
 * Why 64: with misaligned access enabled llc copies 8 bytes per load+store pair, so a 64-byte
 * memcpy is 16 instructions (16 CU, 128 bytes of code) while the syscall costs its 10 CU base
 * (agave `mem_op_base_cost`) plus ~5 instructions of argument setup and call — about even at 64
 * and a clear loss above. Pubkeys (32 B) and small structs stay inline and keep optimizing with
 * the surrounding code. llc itself would only inline up to 1024 bytes (128 stores) and fails on
 * anything else ("A call to built-in function 'memcpy' is not supported").
 */
export const INLINE_MEM_OP_MAX_BYTES = 64;

const INTRINSIC = /^llvm\.(memcpy|memmove|memset)\.p0(?:\.p0)?\.i(32|64)$/;

const DECLARATIONS = {
  sol_memcpy_: "declare void @sol_memcpy_(ptr, ptr, i64)",
  sol_memmove_: "declare void @sol_memmove_(ptr, ptr, i64)",
  sol_memset_: "declare void @sol_memset_(ptr, i64, i64)",
} as const;

/**
 * Rewrites `llvm.memcpy/memmove/memset` calls with a run-time or large length into calls of the
 * `sol_memcpy_`/`sol_memmove_`/`sol_memset_` syscalls (the BPF backend has no libc to call).
 *
 * `sol_memcpy_` fails with "Overlapping copy" when source and destination overlap, and LLVM's
 * memcpy allows them to be *equal*; the rewritten call therefore passes length 0 when
 * `dst == src` (two instructions, no branch). Volatility needs nothing: a syscall is never elided.
 */
export function lowerMemoryIntrinsics(
  module: IrModule,
  names: FreshNames,
  inlineMaxBytes = INLINE_MEM_OP_MAX_BYTES,
): { rewritten: number; keptInline: number } {
  let keptInline = 0;
  const used = new Set<keyof typeof DECLARATIONS>();
  const rewritten = expandLines(module, (line) => {
    const call = line.includes("@llvm.mem") ? parseCall(line, INTRINSIC) : undefined;
    if (!call) return undefined;
    const [, op, lengthBits] = call.callee.match(INTRINSIC) as RegExpMatchArray;
    const [dst, srcOrValue, length] = call.args.map(parseArgument);
    if (!dst || !srcOrValue || !length) throw new Error(`malformed ${call.callee} call: ${line}`);
    if (/^\d+$/.test(length.value) && Number(length.value) <= inlineMaxBytes) {
      keptInline++;
      return undefined;
    }
    const lines: string[] = [];
    let len = length.value;
    if (lengthBits === "32") {
      const wide = names.local("len");
      lines.push(`${wide} = zext i32 ${len} to i64`);
      len = wide;
    }
    if (op === "memset") {
      const byte = names.local("byte");
      lines.push(`${byte} = zext i8 ${srcOrValue.value} to i64`);
      lines.push(`call void @sol_memset_(ptr ${dst.value}, i64 ${byte}, i64 ${len})`);
      used.add("sol_memset_");
    } else if (op === "memmove") {
      lines.push(`call void @sol_memmove_(ptr ${dst.value}, ptr ${srcOrValue.value}, i64 ${len})`);
      used.add("sol_memmove_");
    } else {
      const same = names.local("same");
      const safeLen = names.local("len");
      lines.push(`${same} = icmp eq ptr ${dst.value}, ${srcOrValue.value}`);
      lines.push(`${safeLen} = select i1 ${same}, i64 0, i64 ${len}`);
      lines.push(`call void @sol_memcpy_(ptr ${dst.value}, ptr ${srcOrValue.value}, i64 ${safeLen})`);
      used.add("sol_memcpy_");
    }
    return lines;
  });
  for (const name of [...used].sort()) ensureDeclaration(module, name, DECLARATIONS[name]);
  return { rewritten, keptInline };
}
