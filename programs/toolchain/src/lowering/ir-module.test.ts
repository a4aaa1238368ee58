import { describe, expect, it } from "vitest";
import { demangle } from "./demangle";
import { parseArgument, parseCall, parseIrModule, printIrModule, splitTopLevel } from "./ir-module";

describe("IR text helpers", () => {
  it("given llvm-dis output, when parsed and printed untouched, then the text is byte-identical", () => {
    const text = [
      "; ModuleID = 'x'",
      "@g = internal constant i64 1",
      "",
      "; Function Attrs: nounwind",
      'define internal fastcc void @"_ZN3foo3bar17h0123456789abcdefE"(ptr %0) unnamed_addr #0 {',
      "  ret void",
      "}",
      "declare void @h()",
      "",
    ].join("\n");

    const module = parseIrModule(text);

    expect(
      module.chunks.filter((c) => c.kind === "function").map((c) => (c.kind === "function" ? c.name : "")),
    ).toEqual(["_ZN3foo3bar17h0123456789abcdefE"]);
    expect(printIrModule(module)).toBe(text);
  });

  it("splits arguments on top-level commas only", () => {
    expect(
      splitTopLevel('ptr %a, { i64, i1 } %b, ptr getelementptr (i8, ptr @x, i64 2), ptr @"a,b"'),
    ).toEqual(["ptr %a", "{ i64, i1 } %b", "ptr getelementptr (i8, ptr @x, i64 2)", 'ptr @"a,b"']);
  });

  it("separates an argument's value from its attributes", () => {
    expect(parseArgument("ptr noundef nonnull align 8 dereferenceable(16) captures(none) %3")).toEqual({
      type: "ptr",
      value: "%3",
    });
    expect(parseArgument("i64 range(i64 8, 65) %54")).toEqual({ type: "i64", value: "%54" });
    expect(parseArgument("i64 -7")).toEqual({ type: "i64", value: "-7" });
    expect(parseArgument("ptr getelementptr inbounds (i8, ptr @x, i64 8)").value).toBe(
      "getelementptr inbounds (i8, ptr @x, i64 8)",
    );
  });

  it("parses direct calls with prefixes, return attributes and trailing metadata", () => {
    const call = parseCall(
      "  %4 = tail call noundef { i64, i1 } @llvm.umul.with.overflow.i64(i64 %1, i64 %2) #3, !dbg !7",
      /^llvm\.umul/,
    );
    expect(call).toMatchObject({
      indent: "  ",
      result: "%4",
      callee: "llvm.umul.with.overflow.i64",
      args: ["i64 %1", "i64 %2"],
      suffix: " #3, !dbg !7",
    });
    expect(parseCall("  call void %21(ptr %2)", /.*/)).toBeUndefined();
    expect(parseCall("  call void @other()", /^llvm\./)).toBeUndefined();
  });

  it("demangles legacy Rust symbols for error messages and leaves others alone", () => {
    expect(demangle("_ZN12agent_policy7runtime3cpi13invoke_signed17h2b93946292c7b116E")).toBe(
      "agent_policy::runtime::cpi::invoke_signed",
    );
    expect(
      demangle("_ZN54_$LT$hello_sbf..Square$u20$as$u20$hello_sbf..Shape$GT$4area17h81de201176f68d37E"),
    ).toBe("<hello_sbf::Square as hello_sbf::Shape>::area");
    expect(demangle("_RNvCsfgHYwM92fyn_7___rustc17rust_begin_unwind")).toBe(
      "_RNvCsfgHYwM92fyn_7___rustc17rust_begin_unwind",
    );
    expect(demangle("memcmp")).toBe("memcmp");
  });
});
