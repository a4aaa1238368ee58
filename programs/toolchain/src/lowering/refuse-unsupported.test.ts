import { describe, expect, it } from "vitest";
import { lowerIr } from "../lower-ir";
import { linkBitcode } from "../pipeline/link-bitcode";
import { BPF_MODULE_HEADER, bitcodeOf, runLlc, tempDir, testToolchain } from "../testing/llvm";

/** A `compiler_builtins`-like member: i128 division, floats and atomics nobody may call. */
const builtinsMember = `${BPF_MODULE_HEADER}
define i128 @__udivti3(i128 %a, i128 %b) {
  %1 = udiv i128 %a, %b
  ret i128 %1
}
define double @__adddf3(double %a, double %b) {
  %1 = fadd double %a, %b
  ret double %1
}
define i64 @atomic_add(ptr %p) {
  %1 = atomicrmw add ptr %p, i64 1 seq_cst
  ret i64 %1
}
`;

const programMember = (body: string, declarations = "") => `${BPF_MODULE_HEADER}
define i64 @entrypoint(ptr %input) {
${body}
}
${declarations}`;

function linkAndLower(members: string[]) {
  const bitcode = members.map((ir, i) => ({
    name: i === 0 ? "prog-0.rcgu.o" : `compiler_builtins-${i}.rcgu.o`,
    data: bitcodeOf(ir),
  }));
  const { ir } = linkBitcode(testToolchain(), bitcode, "prog", tempDir());
  return lowerIr(ir);
}

describe("refusal of constructs the BPF backend cannot compile", () => {
  it("given an archive whose builtins member has i128, float and atomic code nobody calls, when linked and lowered, then the build proceeds without it", () => {
    const { ir } = linkAndLower([programMember("  %1 = load i64, ptr %input\n  ret i64 %1"), builtinsMember]);

    expect(ir).not.toContain("__udivti3");
    expect(ir).not.toContain("fadd");
    expect(runLlc(ir)).toMatchObject({ ok: true });
  });

  it("given the program calls u128 division from the builtins member, when lowered, then the build fails naming the function and how it is reached", () => {
    const program = programMember(
      [
        "  %1 = load i128, ptr %input",
        "  %2 = call i128 @__udivti3(i128 %1, i128 7)",
        "  %3 = trunc i128 %2 to i64",
        "  ret i64 %3",
      ].join("\n"),
      "declare i128 @__udivti3(i128, i128)",
    );

    expect(() => linkAndLower([program, builtinsMember])).toThrow(
      /__udivti3 uses 128-bit multiplication\/division[\s\S]*udiv i128 %a, %b[\s\S]*reached via entrypoint -> __udivti3/,
    );
  });

  it("given reachable float arithmetic, atomics and u128 multiplication in one module, when lowered, then all are listed in one error", () => {
    const ir = `${BPF_MODULE_HEADER}
define i64 @entrypoint(ptr %input) {
  %1 = call i64 @_ZN7example5price17h0123456789abcdefE(ptr %input)
  %2 = atomicrmw add ptr %input, i64 1 seq_cst
  %3 = load i128, ptr %input
  %4 = mul i128 %3, %3
  %5 = trunc i128 %4 to i64
  ret i64 %5
}
define internal i64 @_ZN7example5price17h0123456789abcdefE(ptr %p) {
  %1 = load double, ptr %p
  %2 = fmul double %1, 1.5
  %3 = fptoui double %2 to i64
  ret i64 %3
}
`;

    let message = "";
    try {
      lowerIr(ir);
    } catch (error) {
      message = (error as Error).message;
    }

    expect(message).toMatch(/^refusing to build/);
    expect(message).toContain("example::price uses floating point arithmetic");
    expect(message).toContain("reached via entrypoint -> example::price");
    expect(message).toContain("entrypoint uses atomic memory operations");
    expect(message).toContain("entrypoint uses 128-bit multiplication/division");
  });

  it("given a module without an entrypoint, when lowered, then the error says what to export", () => {
    expect(() => lowerIr(`${BPF_MODULE_HEADER}define i64 @main() {\n  ret i64 0\n}\n`)).toThrow(
      /defines no `entrypoint` function[\s\S]*#\[no_mangle\]/,
    );
  });
});
