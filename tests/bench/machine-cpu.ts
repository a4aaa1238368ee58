/**
 * CPU milliseconds the whole machine has spent (every process: the service, its proof workers,
 * the localnet, the indexer, the bench itself), from Linux's /proc/stat. A bench takes it before
 * and after its window to say what one unit of work costs the machine, which is what a throughput
 * bound of "cores / CPU per unit" is really about; and one process's CPU milliseconds (the localnet's:
 * the chain's share of that). Null where /proc is not readable.
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

/** CPU milliseconds process `pid` has used (user + system, all its threads), from /proc/<pid>/stat. */
export function processCpuMs(pid: number | null): number | null {
  if (pid === null) return null;
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return null;
  }
  // Fields after the command name (which may hold spaces, so split after its closing parenthesis):
  // state is field 3, utime field 14 and stime field 15.
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}
