import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildProgram } from "./build";
import { tempDir } from "./testing/llvm";

/** A throwaway crate with the given body in an `entrypoint`, built through the whole pipeline. */
function buildCrate(entrypointBody: string) {
  const crateDir = tempDir();
  mkdirSync(join(crateDir, "src"));
  writeFileSync(
    join(crateDir, "Cargo.toml"),
    `[package]\nname = "probe"\nversion = "0.1.0"\nedition = "2021"\n[lib]\ncrate-type = ["staticlib"]\n` +
      `[profile.release]\npanic = "abort"\nlto = true\ncodegen-units = 1\nopt-level = 3\n[workspace]\n`,
  );
  writeFileSync(
    join(crateDir, "src", "lib.rs"),
    `#![no_std]
#[no_mangle]
pub unsafe extern "C" fn entrypoint(input: *mut u8) -> u64 {
${entrypointBody}
}
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! { loop {} }
`,
  );
  return () =>
    buildProgram({
      crateDir,
      targetDir: join(crateDir, "target"),
      out: join(crateDir, "out", "probe.so"),
      keepFailedWorkDir: false,
    });
}

describe("refusal end to end (Rust source -> build error)", () => {
  it("given Rust code dividing u128 and multiplying f64, when built, then the build fails naming entrypoint and both constructs", () => {
    const build = buildCrate(`    let a = *(input as *const u128);
    let b = *(input.add(16) as *const u128);
    let f = *(input.add(32) as *const f64);
    ((a / (b | 1)) as u64) + (f * 1.5) as u64`);

    expect(build).toThrow(
      /refusing to build[\s\S]*entrypoint uses 128-bit multiplication\/division[\s\S]*entrypoint uses floating point arithmetic/,
    );
  });

  it("given Rust code that only adds u128 values, when built, then it builds (i128 add/sub/shift are fine)", () => {
    const build = buildCrate(`    let a = *(input as *const u128);
    let b = *(input.add(16) as *const u128);
    ((a.wrapping_add(b)) >> 64) as u64`);

    expect(build().record.size).toBeGreaterThan(0);
  });
});
