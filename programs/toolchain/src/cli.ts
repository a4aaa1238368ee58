#!/usr/bin/env -S npx tsx
import { relative } from "node:path";
import { parseArgs } from "node:util";
import { buildProgram, REPO_ROOT } from "./build";
import { verifyBuild } from "./verify";

/**
 * `cpay-sbf build [--crate DIR] [--out PATH] [--record PATH]`
 *   builds the program (default programs/agent-policy) into target/deploy/<name>.so + record.
 * `cpay-sbf verify [--crate DIR] [--so PATH] [--record PATH] [--fresh-out PATH]`
 *   rebuilds into target/sbf/fresh and compares with the committed record. Exit 0 when the build
 *   reproduces or only the toolchain drifted (the fresh .so path is printed on stdout, last
 *   line); exit 1 for a non-reproducible or stale build. Progress goes to stderr.
 */
function main(argv: string[]): number {
  const [command, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: {
      crate: { type: "string" },
      out: { type: "string" },
      record: { type: "string" },
      so: { type: "string" },
      "fresh-out": { type: "string" },
    },
    strict: true,
  });
  const log = (line: string) => process.stderr.write(`[sbf] ${line}\n`);

  if (command === "build") {
    const started = performance.now();
    const result = buildProgram({ crateDir: values.crate, out: values.out, record: values.record, log });
    log(`built in ${Math.round(performance.now() - started)} ms ${JSON.stringify(result.timings)}`);
    process.stdout.write(`${result.so}\n`);
    return 0;
  }

  if (command === "verify") {
    const outcome = verifyBuild({
      crateDir: values.crate,
      so: values.so,
      record: values.record,
      freshOut: values["fresh-out"],
      log,
    });
    switch (outcome.status) {
      case "reproducible":
        log("reproducible: the fresh build is byte-identical to the committed one");
        break;
      case "toolchain-drift":
        log("toolchain drift (not an error; the committed .so was built with another toolchain):");
        log(
          `  rustc ${outcome.committed.rustc} (${outcome.committed.rustcCommit}) -> ${outcome.current.rustc} (${outcome.current.rustcCommit})`,
        );
        log(
          `  LLVM  ${outcome.committed.llvm} -> ${outcome.current.llvm}; llc "${outcome.committed.llc}" -> "${outcome.current.llc}"`,
        );
        log(`  sha256 ${outcome.committedSha256} -> ${outcome.freshSha256}`);
        log(`  use the fresh build: ${relative(REPO_ROOT, outcome.fresh)}`);
        break;
      default:
        log(`${outcome.status}: ${outcome.message}`);
        return 1;
    }
    process.stdout.write(`${outcome.fresh}\n`);
    return 0;
  }

  process.stderr.write("usage: cli.ts build [--crate DIR] [--out PATH] [--record PATH]\n");
  process.stderr.write("       cli.ts verify [--crate DIR] [--so PATH] [--record PATH] [--fresh-out PATH]\n");
  return 2;
}

try {
  process.exitCode = main(process.argv.slice(2));
} catch (error) {
  // Build failures are reports for a person, not crashes: message only, no stack.
  process.stderr.write(`[sbf] error: ${error instanceof Error ? error.message : String(error)}\n`);
  if (process.env.SBF_DEBUG && error instanceof Error) process.stderr.write(`${error.stack}\n`);
  process.exitCode = 1;
}
