import { describe, expect, it } from "vitest";
import { BPF_MODULE_HEADER, lowered, runLlc } from "../testing/llvm";
import { lowerMulWithOverflow } from "./mul-with-overflow";

const fixture = `${BPF_MODULE_HEADER}
define i64 @entrypoint(i64 %a, i64 %b) {
  %1 = tail call { i64, i1 } @llvm.umul.with.overflow.i64(i64 %a, i64 noundef %b)
  %2 = extractvalue { i64, i1 } %1, 1
  %3 = call { i64, i1 } @llvm.smul.with.overflow.i64(i64 %a, i64 -7), !dbg !0
  %4 = extractvalue { i64, i1 } %3, 0
  %5 = select i1 %2, i64 0, i64 %4
  ret i64 %5
}
declare { i64, i1 } @llvm.umul.with.overflow.i64(i64, i64)
declare { i64, i1 } @llvm.smul.with.overflow.i64(i64, i64)
!0 = !{}
`;

describe("lowerMulWithOverflow", () => {
  it("given u64/i64 checked multiplications, when lowered, then they become inline mul + udiv checks that llc accepts", () => {
    expect(runLlc(fixture).stderr).toContain("__multi3");

    const { rewritten, ir } = lowered(fixture, lowerMulWithOverflow);

    expect(rewritten).toBe(2);
    expect(ir).not.toMatch(/call \{ i64, i1 \} @llvm\.[su]mul\.with\.overflow/);
    // unsigned: wrapped product, divisor forced to 1 when a == 0 (SBPF faults on division by zero)
    expect(ir).toMatch(/%__sbf\.mul\.p\.\d+ = mul i64 %a, %b/);
    expect(ir).toMatch(/%__sbf\.mul\.div\.\d+ = select i1 %__sbf\.mul\.nz\.\d+, i64 %a, i64 1/);
    expect(ir).toMatch(/%1 = insertvalue \{ i64, i1 \} %__sbf\.mul\.r\.\d+, i1 %__sbf\.mul\.ov\.\d+, 1/);
    // signed: magnitudes, limit 2^63 - 1 or 2^63 depending on the result's sign
    expect(ir).toMatch(/select i1 %__sbf\.smul\.neg\.\d+, i64 -9223372036854775808, i64 9223372036854775807/);
    expect(ir).toMatch(/%3 = insertvalue \{ i64, i1 \} %__sbf\.mul\.r\.\d+, i1 %__sbf\.smul\.ov\.\d+, 1/);
    expect(runLlc(ir)).toMatchObject({ ok: true });
  });
});
