import { describe, expect, it } from "vitest";
import { BPF_MODULE_HEADER, lowered, runLlc } from "../testing/llvm";
import { removeSret, stripSret } from "./strip-sret";

const fixture = `${BPF_MODULE_HEADER}
@vtable = internal constant [1 x ptr] [ptr @make], align 8

define internal void @make(ptr dead_on_unwind noalias noundef writable writeonly sret({ i64, [2 x i8] }) align 8 captures(none) dereferenceable(16) %0, i64 noundef %1) {
  store i64 %1, ptr %0, align 8
  ret void
}

define i64 @entrypoint(i64 %x) {
  %1 = alloca [16 x i8], align 8
  %2 = load ptr, ptr @vtable, align 8
  call void %2(ptr noalias noundef nonnull sret([16 x i8]) align 8 %1, i64 %x)
  call void @make(ptr sret({ i64, [2 x i8] }) align 8 %1, i64 %x)
  call void @external(ptr sret([16 x i8]) %1)
  %3 = load i64, ptr %1, align 8
  ret i64 %3
}

declare void @external(ptr sret([16 x i8]))
`;

describe("stripSret", () => {
  it("given sret on a definition, direct and indirect call sites and a declaration, when stripped, then none is left and llc accepts the module", () => {
    expect(runLlc(fixture).stderr).toContain("aggregate returns are not supported");
    const { rewritten, ir } = lowered(fixture, stripSret);

    expect(rewritten).toBe(5);
    expect(ir).not.toContain("sret");
    expect(ir).toContain(
      "define internal void @make(ptr dead_on_unwind noalias noundef writable writeonly align 8",
    );
    expect(ir).toContain("call void %2(ptr noalias noundef nonnull align 8 %1, i64 %x)");
    expect(ir).toContain("declare void @external(ptr)");
    expect(runLlc(ir.replace(/\s*call void @external.*\n/, "\n"))).toMatchObject({ ok: true });
  });

  it("removes nested bracketed types and nothing else", () => {
    expect(removeSret("call void @f(ptr sret(%T) align 8 %0, ptr sret({ [2 x { i8 }] }) %1)")).toBe(
      "call void @f(ptr align 8 %0, ptr %1)",
    );
  });
});
