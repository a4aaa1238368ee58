/**
 * vitest global setup: stops the throwaway PostgreSQL (scripts/postgres.sh) at the end of a run that
 * started it. Suites start it on demand (`postgresServerUrl`); scripts/test.sh stops it on exit, but
 * a bare `vitest run` has no such trap, and a cluster left on its port makes the next run's
 * `postgres.sh start` in another checkout fail ("port taken"). A cluster already up when the run
 * began (scripts/test.sh's second pass, a developer's own) is left as it was.
 */
import { execFileSync } from "node:child_process";
import { connect } from "node:net";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const SCRIPT = resolve(dirname(fileURLToPath(import.meta.url)), "../../scripts/postgres.sh");

function listening(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      done(true);
    });
    socket.once("error", () => done(false));
  });
}

export default async function setup(): Promise<() => Promise<void>> {
  const port = Number(process.env.CPAY_PG_PORT ?? 55432);
  const upBefore = await listening(port);
  return async () => {
    if (upBefore || !(await listening(port))) return;
    execFileSync("bash", [SCRIPT, "stop"], { stdio: ["ignore", "ignore", "inherit"] });
  };
}
