/**
 * A project entry point (the API's api/src/main.ts, the indexer's indexer/src/main.ts) as its own
 * child process, the way scripts/start.sh runs it: started with its environment, ready once its
 * output matches `ready`, spoken to only over HTTP. `kill()` is a SIGKILL (crash tests), `stop()` a
 * SIGTERM and a wait, `start()` launches it again with the same environment (the same database);
 * `env` may be changed in between (e.g. a localnet that moved).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { resolve } from "node:path";

const REPO = resolve(import.meta.dirname, "../..");
/** What a process printed is kept for failure messages, its tail only (a crash is at the end). */
const MAX_OUTPUT_CHARS = 200_000;

export interface ServiceProcessOptions {
  /** Path of the entry point from the repository's root, e.g. `api/src/main.ts`. */
  readonly entry: string;
  readonly env: NodeJS.ProcessEnv;
  /** Matched against everything printed since the launch; the match is what `start()` returns. */
  readonly ready: RegExp;
  /** How long a start may take; default 90 s (a cold tsx transpile on a busy machine). */
  readonly readyTimeoutMs?: number;
}

export interface ServiceProcess {
  env: NodeJS.ProcessEnv;
  /** Launches it and waits until `ready` matches its output. */
  start(): Promise<RegExpMatchArray>;
  /** What it printed since its last launch (stdout and stderr, interleaved). */
  output(): string;
  running(): boolean;
  stop(): Promise<void>;
  kill(): Promise<void>;
  /** Sends `signal` now without waiting: for a process `exit` handler, which cannot wait. */
  signalNow(signal: NodeJS.Signals): void;
}

/** A handle on the process; call `start()` to launch it. */
export function serviceProcess(options: ServiceProcessOptions): ServiceProcess {
  let child: ChildProcess | null = null;
  let output = "";
  const alive = (process: ChildProcess | null): boolean =>
    process !== null && process.exitCode === null && process.signalCode === null;

  const end = async (signal: NodeJS.Signals) => {
    const running = child;
    child = null;
    if (running === null || !alive(running)) return;
    const exited = new Promise((done) => running.once("exit", done));
    running.kill(signal);
    await exited;
  };

  const handle: ServiceProcess = {
    env: options.env,
    async start() {
      if (alive(child)) throw new Error(`${options.entry} is already running`);
      output = "";
      const started = spawn(process.execPath, ["--import", "tsx", resolve(REPO, options.entry)], {
        cwd: REPO,
        env: { ...process.env, ...handle.env },
        stdio: ["ignore", "pipe", "pipe"],
      });
      child = started;
      const append = (chunk: Buffer) => {
        output = (output + chunk.toString()).slice(-MAX_OUTPUT_CHARS);
      };
      started.stdout?.on("data", append);
      started.stderr?.on("data", append);
      const deadline = Date.now() + (options.readyTimeoutMs ?? 90_000);
      for (;;) {
        const match = output.match(options.ready);
        if (match !== null) return match;
        if (!alive(started)) {
          throw new Error(
            `${options.entry} exited (${started.exitCode ?? started.signalCode}) before it was ready:\n${output}`,
          );
        }
        if (Date.now() > deadline) throw new Error(`${options.entry} was not ready in time:\n${output}`);
        await new Promise((done) => setTimeout(done, 50));
      }
    },
    output: () => output,
    running: () => alive(child),
    stop: () => end("SIGTERM"),
    kill: () => end("SIGKILL"),
    signalNow(signal) {
      if (alive(child)) child?.kill(signal);
    },
  };
  return handle;
}
