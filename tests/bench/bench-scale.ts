/**
 * How much of each benchmark runs. The full run (`npm run bench`) takes the repetitions and load
 * durations whose medians and ratios the project tracks. `BENCH_SMOKE=1` is a smoke: every entry
 * runs its whole code path (the same worlds, children, loads and checks) once, with the fewest
 * repetitions and the shortest loads that still go through every step, so a bench that cannot run
 * fails in a few minutes (scripts/test.sh runs it); its figures show the code ran, not how fast.
 * A count's own variable (`BENCH_INDEXER_BACKLOG`, ...) overrides both, as an integer of at least 1.
 */
import { ConfigError, integerFromEnv } from "@cpay/ledger/config";

/** True when this run is the smoke (`BENCH_SMOKE=1`); unset or `0` is the full run. */
export const BENCH_SMOKE: boolean = smokeFromEnv(process.env.BENCH_SMOKE);

/**
 * A repetition count or a duration in seconds: `variable`'s value when it is set, else `smoke` in
 * the smoke and `full` in the full run. Without a variable, only the mode chooses.
 */
export function benchScale(variable: string | null, counts: { full: number; smoke: number }): number {
  const fallback = BENCH_SMOKE ? counts.smoke : counts.full;
  return variable === null ? fallback : integerFromEnv(process.env, variable, fallback, 1, 1_000_000);
}

function smokeFromEnv(text: string | undefined): boolean {
  if (text === undefined || text === "" || text === "0") return false;
  if (text === "1") return true;
  throw new ConfigError(`BENCH_SMOKE must be 1 (the smoke) or 0/unset (the full run), got "${text}"`);
}
