/**
 * The API's entry point (api/src/main.ts) as its own process, the way scripts/start.sh runs it, and
 * what its start banner tells a client: the `/v1` URL, the admin listener's URL, the test key it
 * issued for @demo and, when this start created @demo, @demo's confidential secret.
 */
import { type ServiceProcess, serviceProcess } from "./service-process";

const BANNER =
  /API:\s+(http:\/\/\S+)\/v1[\s\S]*admin:\s+(\S+)[\s\S]*export CPAY_KEY=(\S+)[\s\S]*Ctrl-C to stop/;

export interface ApiBanner {
  readonly url: string;
  /** `off` when the admin listener was not started. */
  readonly adminUrl: string;
  readonly demoKey: string;
  /** Null when @demo existed before this start (another process created it). */
  readonly demoSecret: string | null;
}

/** A handle on an API process with `env` (PORT, DATABASE_URL, ... as scripts/start.sh reads them). */
export function apiProcess(env: NodeJS.ProcessEnv): ServiceProcess {
  return serviceProcess({ entry: "api/src/main.ts", env, ready: BANNER });
}

/** Starts `api` and reads its banner. */
export async function startApi(api: ServiceProcess): Promise<ApiBanner> {
  const match = await api.start();
  return {
    url: match[1] as string,
    adminUrl: match[2] as string,
    demoKey: match[3] as string,
    demoSecret: api.output().match(/confidential secret \(shown ONCE[^\n]*\n\s+(\S+)/)?.[1] ?? null,
  };
}
