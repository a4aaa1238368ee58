/**
 * A bench entry's server side as its own process: a script of this folder run through tsx, ready
 * once it prints its first JSON line (what the entry needs: URL, keys), over the localnet process
 * whose manifest is given or else over a cluster of its own. Stopped with SIGTERM: its handler
 * exits, which also stops the indexer process a child over RPC started (bench-connection.ts) and
 * lets `--cpu-prof` write its profile.
 */
import { type ChildProcess, fork } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { LOCALNET_MANIFEST_ENV } from "./bench-connection";

export async function forkBenchChild<Ready>(
  script: string,
  args: readonly string[],
  manifestPath: string | null = null,
): Promise<{ readonly child: ChildProcess; readonly ready: Ready }> {
  const child = fork(fileURLToPath(new URL(script, import.meta.url)), [...args], {
    execArgv: ["--import", "tsx"],
    env: manifestPath === null ? process.env : { ...process.env, [LOCALNET_MANIFEST_ENV]: manifestPath },
    stdio: ["ignore", "pipe", "inherit", "ipc"],
  });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  for await (const line of lines) {
    if (line.startsWith("{")) return { child, ready: JSON.parse(line) as Ready };
  }
  throw new Error(`bench child ${script} ${args.join(" ")} exited before it was ready`);
}

export async function stopBenchChild(child: ChildProcess): Promise<void> {
  const exited = once(child, "exit");
  child.kill("SIGTERM");
  await exited;
}

/** One autocannon run, as a promise. */
export function autocannonLoad(options: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

/** The payment the API loads send: 0.01 USDG in public to `@sink`. */
export const PUBLIC_PAYMENT = { to: "@sink", amount: "0.01", confidential: false } as const;

/** `POST /v1/transfers` of PUBLIC_PAYMENT with `key`, on the service at `url`. */
export const publicTransferRequest =
  (url: string) =>
  (key: string): autocannon.Options => ({
    url: `${url}/v1/transfers`,
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify(PUBLIC_PAYMENT),
  });

/** What a load of several autocannon runs did: successful requests per second, failed, sent. */
export interface KeyedLoad {
  readonly rate: number;
  readonly failed: number;
  readonly sent: number;
}

/**
 * `connections` autocannon runs at once for `seconds`, one connection each, the i-th run with the
 * i-th of `keys` (round robin) in what `request` makes of it, and each request as `each` remakes
 * it (e.g. a fresh idempotency key). A request failed when it was not 2xx, erred or timed out, or
 * when `refused` says so of its body (a door that answers a refusal in a 200).
 */
export async function loadPerKey(input: {
  readonly keys: readonly string[];
  readonly connections: number;
  readonly seconds: number;
  readonly request: (key: string) => autocannon.Options;
  readonly each?: (request: autocannon.Request) => autocannon.Request;
  readonly refused?: (body: string) => boolean;
}): Promise<KeyedLoad> {
  const { each, refused } = input;
  let refusals = 0;
  const requests: autocannon.Request[] = [
    {
      ...(each === undefined ? {} : { setupRequest: each }),
      ...(refused === undefined
        ? {}
        : {
            onResponse: (_status: number, body: string) => {
              if (refused(body)) refusals++;
            },
          }),
    },
  ];
  const results = await Promise.all(
    Array.from({ length: input.connections }, (_, i) =>
      autocannonLoad({
        ...input.request(input.keys[i % input.keys.length] as string),
        requests,
        connections: 1,
        duration: input.seconds,
      }),
    ),
  );
  const sent = results.reduce((sum, r) => sum + r.requests.total, 0);
  const failed = results.reduce((sum, r) => sum + r.non2xx + r.errors + r.timeouts, refusals);
  return { rate: Number(((sent - failed) / input.seconds).toFixed(1)), failed, sent };
}
