import { describe, expect, it } from "vitest";
import { readElfObject } from "../link/read-elf-object";
import { BPF_MODULE_HEADER, lowered, runLlc } from "../testing/llvm";
import { parseIrModule, printIrModule } from "./ir-module";
import { trapToAbort } from "./trap-to-abort";

const fixture = (extra = "") => `${BPF_MODULE_HEADER}
define i64 @entrypoint(i64 %x) {
  %1 = icmp eq i64 %x, 0
  br i1 %1, label %2, label %3

2:
  tail call void @llvm.trap() #0
  unreachable

3:
  call void @llvm.ubsantrap(i8 7)
  ret i64 %x
}
declare void @llvm.trap()
declare void @llvm.ubsantrap(i8 immarg)
attributes #0 = { cold noreturn nounwind }
${extra}`;

describe("trapToAbort", () => {
  it("given llvm.trap and llvm.ubsantrap, when lowered, then both call the abort syscall and the object references `abort`", () => {
    const { rewritten, ir } = lowered(fixture(), trapToAbort);

    expect(rewritten).toBe(2);
    expect(ir).toContain("  call void @abort() #0");
    expect(ir).toContain("  call void @abort()\n");
    expect(ir).toContain("declare void @abort() noreturn nounwind");
    const compiled = runLlc(ir);
    expect(compiled.ok).toBe(true);
    const symbols = readElfObject(compiled.object as Uint8Array).symbols.map((s) => s.name);
    expect(symbols).toContain("abort");
    expect(symbols).not.toContain("__bpf_trap");
  });

  it("given a module that already declares abort, when lowered, then the declaration is reused", () => {
    const module = parseIrModule(fixture("declare void @abort() unnamed_addr #0\n"));

    trapToAbort(module);

    expect(printIrModule(module).match(/declare void @abort\(\)/g)).toHaveLength(1);
  });
});
