import { describe, expect, it } from "vitest";
import { BPF_MODULE_HEADER, lowered, runLlc } from "../testing/llvm";
import { lowerSignedDivision } from "./signed-division";

const fixture = `${BPF_MODULE_HEADER}
define i64 @entrypoint(i64 %a, i64 %b, i32 %c, i32 %d, i8 %e) {
  %1 = sdiv i64 %a, %b
  %2 = srem i64 %a, %b, !dbg !0
  %3 = sdiv exact i32 %c, %d
  %4 = srem i32 %c, 10
  %5 = sdiv i8 %e, -3
  %6 = add i64 %1, %2
  %7 = sext i32 %3 to i64
  %8 = sext i32 %4 to i64
  %9 = sext i8 %5 to i64
  %10 = add i64 %6, %7
  %11 = add i64 %10, %8
  %12 = add i64 %11, %9
  ret i64 %12
}
!0 = !{}
`;

describe("lowerSignedDivision", () => {
  it("given sdiv/srem on i64, i32 and i8, when lowered, then only unsigned division remains and llc accepts it", () => {
    expect(runLlc(fixture).stderr).toContain("unsupported signed division");

    const { rewritten, ir } = lowered(fixture, lowerSignedDivision);

    expect(rewritten).toBe(5);
    expect(ir).not.toMatch(/= s(div|rem) /);
    expect(ir).toMatch(/%__sbf\.div\.u\.\d+ = udiv i64 %__sbf\.div\.am\.\d+, %__sbf\.div\.bm\.\d+/);
    expect(ir).toMatch(
      /%1 = select i1 %__sbf\.div\.neg\.\d+, i64 %__sbf\.div\.uf\.\d+, i64 %__sbf\.div\.u\.\d+/,
    );
    // the remainder takes the dividend's sign
    expect(ir).toMatch(
      /%2 = select i1 (%__sbf\.div\.an\.\d+), i64 %__sbf\.div\.uf\.\d+, i64 %__sbf\.div\.u\.\d+/,
    );
    expect(ir).toMatch(/urem i32 %__sbf\.div\.am\.\d+, %__sbf\.div\.bm\.\d+/);
    expect(ir).toMatch(/%__sbf\.div\.bn\.\d+ = icmp slt i8 -3, 0/);
    expect(runLlc(ir)).toMatchObject({ ok: true });
  });

  it("given i128 signed division, when lowered, then it is left for the refusal pass", () => {
    const i128 = `${BPF_MODULE_HEADER}define i128 @f(i128 %a, i128 %b) {\n  %1 = sdiv i128 %a, %b\n  ret i128 %1\n}\n`;

    expect(lowered(i128, lowerSignedDivision).rewritten).toBe(0);
  });
});
