/**
 * The localnet as its own process, the way suites meet a validator: started with the project's own
 * entry point on ephemeral ports with its chain store in a directory of the suite's, found through the
 * manifest it writes once it serves, spoken to only over JSON-RPC + PubSub. `kill()` is a SIGKILL
 * (crash tests); `stop()` a SIGTERM and a wait; `restart()` starts it again on the same chain store and
 * the same ports. The child holds a pipe from this process as its stdin and shuts down when it
 * closes, so it never outlives the test file that started it, however that file ends.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const REPO = resolve(import.meta.dirname, "../..");
const ENTRY = join(REPO, "localnet/src/main.ts");
const MANIFEST = "localnet.json";

export interface LocalnetProcessOptions {
  /** The localnet directory; default a new temporary one (removed by `remove()`). */
  readonly dir?: string;
  /** Milliseconds per slot; default 50 (suites want `confirmed` quickly). */
  readonly slotMs?: number;
  readonly env?: NodeJS.ProcessEnv;
}

export interface LocalnetProcess {
  readonly dir: string;
  readonly manifestPath: string;
  rpcUrl(): string;
  wsUrl(): string;
  /** What the process printed (stdout and stderr), for failure messages. */
  output(): string;
  /** Its process id while it runs (a bench reads its CPU time), else null. */
  pid(): number | null;
  stop(): Promise<void>;
  kill(): Promise<void>;
  restart(): Promise<void>;
  /** Stops it and deletes a localnet directory this helper created. */
  remove(): Promise<void>;
  /** SIGKILL without waiting (for a process's exit hook, where nothing can be awaited). */
  killNow(): void;
}

function portOf(url: string): string {
  return url === "" ? "0" : new URL(url).port;
}

export async function startLocalnetProcess(options: LocalnetProcessOptions = {}): Promise<LocalnetProcess> {
  const ownsDir = options.dir === undefined;
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), "cpay-localnet-"));
  const manifestPath = join(dir, MANIFEST);
  let child: ChildProcess | null = null;
  let output = "";
  let urls = { rpcUrl: "", wsUrl: "" };

  const launch = async () => {
    rmSync(manifestPath, { force: true });
    output = "";
    const started = spawn(process.execPath, ["--import", "tsx", ENTRY], {
      cwd: REPO,
      env: {
        ...process.env,
        LOCALNET_DIR: dir,
        // The first start picks free ports; a restart takes the same ones again, as a validator
        // restarted on its chain would, so clients that hold its URLs find it.
        LOCALNET_RPC_PORT: portOf(urls.rpcUrl),
        LOCALNET_WS_PORT: portOf(urls.wsUrl),
        LOCALNET_SLOT_MS: String(options.slotMs ?? 50),
        LOCALNET_EXIT_WITH_STDIN: "1",
        ...options.env,
      },
      stdio: ["pipe", "pipe", "pipe"],
    });
    child = started;
    started.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    started.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    const deadline = Date.now() + 60_000;
    while (!existsSync(manifestPath)) {
      if (started.exitCode !== null || started.signalCode !== null) {
        throw new Error(
          `the localnet exited (${started.exitCode ?? started.signalCode}) before serving:\n${output}`,
        );
      }
      if (Date.now() > deadline) throw new Error(`the localnet did not serve within 60 s:\n${output}`);
      await new Promise((done) => setTimeout(done, 50));
    }
    const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as { rpcUrl: string; wsUrl: string };
    urls = { rpcUrl: manifest.rpcUrl, wsUrl: manifest.wsUrl };
  };

  const end = async (signal: NodeJS.Signals) => {
    const running = child;
    child = null;
    if (running === null || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((done) => running.once("exit", done));
    running.kill(signal);
    await exited;
  };

  await launch();
  return {
    dir,
    manifestPath,
    rpcUrl: () => urls.rpcUrl,
    wsUrl: () => urls.wsUrl,
    output: () => output,
    pid: () => (child as ChildProcess | null)?.pid ?? null,
    stop: () => end("SIGTERM"),
    kill: () => end("SIGKILL"),
    async restart() {
      await end("SIGTERM");
      await launch();
    },
    killNow() {
      const running = child;
      child = null;
      if (running !== null && running.exitCode === null && running.signalCode === null)
        running.kill("SIGKILL");
    },
    async remove() {
      await end("SIGTERM");
      if (ownsDir) rmSync(dir, { recursive: true, force: true });
    },
  };
}
