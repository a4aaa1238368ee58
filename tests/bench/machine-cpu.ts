/**
 * CPU milliseconds the whole machine has spent (every process: the service, its proof workers,
 * the localnet, the indexer, the bench itself), from Linux's /proc/stat. A bench takes it before
 * and after its window to say what one unit of work costs the machine, which is what a throughput
 * bound of "cores / CPU per unit" is really about. Null where /proc/stat is not readable.
 */
import { readFileSync } from "node:fs";

/** USER_HZ: /proc/stat counts in ticks of 1/100 s on every Linux Node supports. */
const TICK_MS = 10;

export function machineBusyCpuMs(): number | null {
  let text: string;
  try {
    text = readFileSync("/proc/stat", "utf8");
  } catch {
    return null;
  }
  const total = text.split("\n").find((line) => line.startsWith("cpu "));
  if (total === undefined) return null;
  // user nice system idle iowait irq softirq steal ...: everything but idle and iowait is work.
  const ticks = total.trim().split(/\s+/).slice(1).map(Number);
  const busy = ticks.reduce((sum, value, index) => (index === 3 || index === 4 ? sum : sum + value), 0);
  return busy * TICK_MS;
}
