/**
 * Watching the fee reserve's balance while the service runs. Start-up refuses a reserve below
 * `RESERVE_MIN_LAMPORTS`; after that it only drains, and an empty reserve stops every transfer.
 * So every process reads its environment's reserve every READ_EVERY_MS and:
 * - logs a warning when the balance falls below `RESERVE_WARN_LAMPORTS` (again every
 *   REPEAT_WARNING_MS while it stays there), and an info line once it is back above;
 * - keeps the reading for the admin listener's `/metrics` (reserve-metrics.ts), where an operator's
 *   monitoring alerts on it.
 * A failed read (the cluster unreachable) keeps the last reading, whose age `/metrics` shows.
 */
import { registerBackgroundJob } from "../coordination/background-jobs";
import { describeUnexpected } from "../core/describe-unexpected";
import type { ServiceContext } from "../core/service-context";

const READ_EVERY_MS = 30_000;
const REPEAT_WARNING_MS = 10 * 60_000;

export interface ReserveReading {
  readonly lamports: bigint;
  /** Below the environment's warning line at this reading. */
  readonly low: boolean;
  /** Epoch ms of the service clock. */
  readonly readAt: number;
}

const readings = new WeakMap<ServiceContext, ReserveReading>();
/** When the current run of low readings last warned (epoch ms of the service clock). */
const warnedAt = new WeakMap<ServiceContext, number>();

/** The last reading of this environment's reserve, null before the first one answered. */
export function lastReserveReading(service: ServiceContext): ReserveReading | null {
  return readings.get(service) ?? null;
}

/** The environment's warning line (`RESERVE_WARN_LAMPORTS`). */
export function reserveWarnLamportsOf(service: ServiceContext): bigint {
  const settings = service.config.environments[service.environment];
  if (settings === null) throw new Error(`the ${service.environment} environment is not configured`);
  return settings.reserveWarnLamports;
}

/** Reads the reserve once, records it and says what changed (see the module doc). */
export async function readReserveBalance(service: ServiceContext): Promise<ReserveReading> {
  const account = await service.chain.getAccount(service.feePayer.address);
  const lamports = account?.lamports ?? 0n;
  const line = reserveWarnLamportsOf(service);
  const previous = readings.get(service) ?? null;
  const reading = { lamports, low: lamports < line, readAt: service.clock() };
  readings.set(service, reading);
  const fields = {
    reserve: service.feePayer.address,
    lamports: lamports.toString(),
    warn_below_lamports: line.toString(),
  };
  const warned = warnedAt.get(service) ?? 0;
  if (reading.low && (previous?.low !== true || reading.readAt - warned >= REPEAT_WARNING_MS)) {
    warnedAt.set(service, reading.readAt);
    service.logger.warn(fields, "the fee reserve is low: fund it before transfers start failing");
  } else if (!reading.low && previous?.low === true) {
    service.logger.info(fields, "the fee reserve is above its warning line again");
  }
  return reading;
}

registerBackgroundJob((service) => {
  let running: Promise<void> | null = null;
  const tick = () => {
    if (running !== null) return;
    running = readReserveBalance(service)
      .then(() => undefined)
      .catch((error: unknown) => {
        service.logger.warn(
          { err: describeUnexpected(error) },
          "reading the fee reserve's balance failed; retrying",
        );
      })
      .finally(() => {
        running = null;
      });
  };
  tick();
  const timer = setInterval(tick, READ_EVERY_MS);
  // A job alone never keeps the process alive: the HTTP server does.
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
});
