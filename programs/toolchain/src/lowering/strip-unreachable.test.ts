import { describe, expect, it } from "vitest";
import { BPF_MODULE_HEADER } from "../testing/llvm";
import { parseIrModule, printIrModule } from "./ir-module";
import { computeReachability, referenceChain } from "./reachability";
import { stripUnreachable } from "./strip-unreachable";

const fixture = `${BPF_MODULE_HEADER}
@table = internal constant [1 x ptr] [ptr @via_table], align 8
@unused_table = internal constant [1 x ptr] [ptr @only_in_unused_table], align 8
@"quoted name" = private constant [2 x i8] c"@x", align 1
@llvm.used = appending global [1 x ptr] [ptr @kept_by_llvm_used], section "llvm.metadata"

define i64 @entrypoint(ptr %0) {
  %2 = load ptr, ptr @table, align 8
  %3 = call i64 %2(ptr @"quoted name")
  %4 = call i64 @direct(i64 %3)
  ret i64 %4
}
define internal i64 @direct(i64 %0) {
  ret i64 %0
}
define internal i64 @via_table(ptr %0) {
  ret i64 1
}
define i64 @public_but_dead() {
  %1 = call i64 @dead_callee()
  ret i64 %1
}
define internal i64 @dead_callee() {
  ret i64 2
}
define internal i64 @only_in_unused_table() {
  ret i64 3
}
define internal void @kept_by_llvm_used() {
  ret void
}
define internal void @kept_by_metadata() {
  ret void
}
declare void @never_called()
!0 = !{ptr @kept_by_metadata}
`;

describe("stripUnreachable", () => {
  it("given dead public and internal code, when stripped, then only what entrypoint, llvm.used or metadata reach remains", () => {
    const module = parseIrModule(fixture);
    const reachability = computeReachability(module, ["entrypoint"]);

    const { removed } = stripUnreachable(module, reachability);
    const ir = printIrModule(module);

    for (const kept of [
      "@direct",
      "@via_table",
      "@table",
      '@"quoted name"',
      "@kept_by_llvm_used",
      "@kept_by_metadata",
    ]) {
      expect(ir).toContain(kept);
    }
    for (const gone of [
      "define i64 @public_but_dead",
      "@dead_callee",
      "@unused_table",
      "@only_in_unused_table",
    ]) {
      expect(ir).not.toContain(gone);
    }
    expect(ir).toContain("declare void @never_called()");
    expect(removed).toBe(4);
    expect(referenceChain(reachability, "via_table")).toEqual(["entrypoint", "table", "via_table"]);
  });
});
