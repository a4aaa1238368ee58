/**
 * The shutdown of a long-running command (`npm run localnet`, the service's start command): on the
 * first SIGINT or SIGTERM, run `stop` once, then exit 0 (or 1, printing why, if stopping failed).
 * A second signal while stopping is ignored, so Ctrl-C twice cannot cut the shutdown short.
 */
export function exitOnSignals(stop: () => Promise<void>): void {
  let stopping = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: shutting down`);
    stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", shutdown);
  process.on("SIGTERM", shutdown);
}
