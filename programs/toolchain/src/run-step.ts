import { spawnSync } from "node:child_process";

/**
 * A failed build step: which step, the exact command, its exit status and its stderr. The build
 * never continues past one of these, so a broken .so can never be written silently.
 */
export class BuildStepError extends Error {
  constructor(
    readonly step: string,
    readonly command: string,
    readonly detail: string,
    readonly stderr: string,
  ) {
    super(`${step} failed: ${detail}\n  command: ${command}${stderr ? `\n${indent(stderr.trimEnd())}` : ""}`);
    this.name = "BuildStepError";
  }
}

export interface StepOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Appended to the error when the command itself is missing (e.g. which Debian package has it). */
  missingHint?: string;
}

export interface StepOutput {
  stdout: string;
  stderr: string;
}

/**
 * Runs one external command of the pipeline synchronously and returns its output, or throws a
 * {@link BuildStepError} naming the step when it cannot start, is killed, or exits non-zero.
 * stderr is surfaced even on success so callers can show warnings (cargo prints progress there).
 */
export function runStep(step: string, command: string, args: readonly string[], options: StepOptions = {}) {
  const printable = [command, ...args].map(quote).join(" ");
  const result = spawnSync(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
  });
  if (result.error) {
    const code = (result.error as NodeJS.ErrnoException).code;
    const detail =
      code === "ENOENT"
        ? `command not found: ${command}${options.missingHint ? ` (${options.missingHint})` : ""}`
        : `could not run ${command}: ${result.error.message}`;
    throw new BuildStepError(step, printable, detail, "");
  }
  const stderr = result.stderr ?? "";
  if (result.signal) {
    throw new BuildStepError(step, printable, `killed by ${result.signal}`, stderr);
  }
  if (result.status !== 0) {
    throw new BuildStepError(step, printable, `exit status ${result.status}`, stderr);
  }
  return { stdout: result.stdout ?? "", stderr } satisfies StepOutput;
}

function quote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

function indent(text: string): string {
  return text
    .split("\n")
    .map((line) => `    ${line}`)
    .join("\n");
}
