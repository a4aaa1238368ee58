import { describe, expect, it } from "vitest";
import { BPF_MODULE_HEADER, lowered, runLlc } from "../testing/llvm";
import { INLINE_MEM_OP_MAX_BYTES, lowerMemoryIntrinsics } from "./memory-intrinsics";

const fixture = (body: string) => `${BPF_MODULE_HEADER}
define void @entrypoint(ptr %dst, ptr %src, i64 %n, i32 %m, i8 %byte) {
${body}
  ret void
}
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.memcpy.p0.p0.i32(ptr, ptr, i32, i1)
declare void @llvm.memmove.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
`;

function lower(ir: string) {
  return lowered(ir, lowerMemoryIntrinsics);
}

describe("lowerMemoryIntrinsics", () => {
  it("given a memcpy with a run-time length, when lowered, then it calls sol_memcpy_ with length 0 when dst == src, and llc accepts it", () => {
    const ir = fixture(
      "  call void @llvm.memcpy.p0.p0.i64(ptr noundef nonnull align 1 %dst, ptr noundef nonnull readonly align 1 %src, i64 %n, i1 false), !noalias !0",
    ).concat("!0 = !{}\n");
    expect(runLlc(ir).stderr).toContain("A call to built-in function 'memcpy' is not supported");

    const lowered = lower(ir);

    expect(lowered.rewritten).toBe(1);
    expect(lowered.ir).toContain("%__sbf.same.0 = icmp eq ptr %dst, %src");
    expect(lowered.ir).toContain("%__sbf.len.1 = select i1 %__sbf.same.0, i64 0, i64 %n");
    expect(lowered.ir).toContain("call void @sol_memcpy_(ptr %dst, ptr %src, i64 %__sbf.len.1)");
    expect(lowered.ir).toContain("declare void @sol_memcpy_(ptr, ptr, i64)");
    expect(lowered.ir).not.toMatch(/call void @llvm\.memcpy/);
    expect(runLlc(lowered.ir)).toMatchObject({ ok: true });
  });

  it(`given constant lengths, when lowered, then up to ${INLINE_MEM_OP_MAX_BYTES} bytes stay inline and longer ones become syscalls`, () => {
    const ir = fixture(
      [
        `  call void @llvm.memcpy.p0.p0.i64(ptr %dst, ptr %src, i64 ${INLINE_MEM_OP_MAX_BYTES}, i1 false)`,
        `  call void @llvm.memcpy.p0.p0.i64(ptr %dst, ptr %src, i64 ${INLINE_MEM_OP_MAX_BYTES + 1}, i1 false)`,
        "  call void @llvm.memset.p0.i64(ptr %dst, i8 0, i64 4096, i1 false)",
      ].join("\n"),
    );

    const lowered = lower(ir);

    expect(lowered).toMatchObject({ rewritten: 2, keptInline: 1 });
    expect(lowered.ir).toContain(
      `@llvm.memcpy.p0.p0.i64(ptr %dst, ptr %src, i64 ${INLINE_MEM_OP_MAX_BYTES}, i1 false)`,
    );
    expect(lowered.ir).toContain(`i64 0, i64 ${INLINE_MEM_OP_MAX_BYTES + 1}`);
    expect(lowered.ir).toMatch(/call void @sol_memset_\(ptr %dst, i64 %__sbf\.byte\.\d+, i64 4096\)/);
    expect(runLlc(lowered.ir)).toMatchObject({ ok: true });
  });

  it("given memset, memmove and an i32-length memcpy, when lowered, then each gets its syscall with 64-bit operands", () => {
    const ir = fixture(
      [
        "  call void @llvm.memset.p0.i64(ptr align 8 %dst, i8 %byte, i64 %n, i1 true)",
        "  call void @llvm.memmove.p0.p0.i64(ptr %dst, ptr %src, i64 %n, i1 false)",
        "  tail call void @llvm.memcpy.p0.p0.i32(ptr %dst, ptr %src, i32 %m, i1 false) #0",
      ].join("\n"),
    ).concat("attributes #0 = { nounwind }\n");

    const lowered = lower(ir);

    expect(lowered.rewritten).toBe(3);
    expect(lowered.ir).toMatch(
      /%__sbf\.byte\.(\d+) = zext i8 %byte to i64\n\s+call void @sol_memset_\(ptr %dst, i64 %__sbf\.byte\.\1, i64 %n\)/,
    );
    expect(lowered.ir).toContain("call void @sol_memmove_(ptr %dst, ptr %src, i64 %n)");
    expect(lowered.ir).toMatch(/%__sbf\.len\.\d+ = zext i32 %m to i64/);
    expect(lowered.ir.match(/^declare void @sol_mem\w+_/gm)).toHaveLength(3);
    expect(runLlc(lowered.ir)).toMatchObject({ ok: true });
  });

  it("given a module that already declares sol_memcpy_ with its own signature, when lowered, then no second declaration is added", () => {
    const ir = `${fixture("  call void @llvm.memcpy.p0.p0.i64(ptr %dst, ptr %src, i64 %n, i1 false)")}declare i64 @sol_memcpy_(ptr noundef, ptr noundef, i64 noundef)\n`;

    const lowered = lower(ir);

    expect(lowered.ir.match(/declare .*@sol_memcpy_/g)).toHaveLength(1);
    expect(runLlc(lowered.ir)).toMatchObject({ ok: true });
  });
});
