/**
 * One benchmark entry: a measured quantity next to a baseline measured in the same run, reported
 * as a ratio (lower is better unless `higherIsBetter`). Absolute numbers vary by machine; the ratio
 * against a baseline taken side by side is what the project tracks.
 */
export interface BenchResult {
  readonly name: string;
  readonly unit: string;
  readonly value: number;
  readonly baselineName: string;
  readonly baseline: number;
  /** The ratio the project aims for (value / baseline at most this), when it has one. */
  readonly goal?: number;
  readonly higherIsBetter?: boolean;
  /**
   * A count of what went wrong (failed requests under load), not how fast: its goal is judged in a
   * smoke too, where a miss fails the run, since it says the code path itself did not work.
   */
  readonly correctness?: boolean;
}

export interface BenchEntry {
  readonly name: string;
  run(): Promise<BenchResult[]>;
}

export function ratio(result: BenchResult): number {
  return result.value / result.baseline;
}

/** False when `result` has a goal and misses it. */
export function goalMet(result: BenchResult): boolean {
  if (result.goal === undefined) return true;
  return result.higherIsBetter ? ratio(result) >= result.goal : ratio(result) <= result.goal;
}

/**
 * The results as a table. A smoke's (bench-scale.ts) says so above the table and in the goal column
 * of every row but the correctness ones: one short round measures nothing, so no ratio of it is
 * held against a goal.
 */
export function formatResults(results: readonly BenchResult[], options: { smoke?: boolean } = {}): string {
  const smoke = options.smoke === true;
  const rows = results.map((r) => [
    r.name,
    `${r.value.toLocaleString("en-US")} ${r.unit}`,
    `${r.baselineName}: ${r.baseline.toLocaleString("en-US")} ${r.unit}`,
    `${ratio(r).toFixed(2)}x`,
    smoke && r.correctness !== true ? "smoke: not a measure" : goalText(r),
  ]);
  const header = ["measure", "value", "baseline (same run)", "ratio", "goal"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]?.length ?? 0)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join("  ");
  const title = smoke
    ? ["SMOKE (BENCH_SMOKE=1): every entry ran once, short; these figures show it runs, not how fast", ""]
    : [];
  return [...title, line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n");
}

function goalText(r: BenchResult): string {
  if (r.goal === undefined) return "";
  if (r.higherIsBetter) return goalMet(r) ? `>= ${r.goal}x goal met` : `< ${r.goal}x GOAL MISSED`;
  return goalMet(r) ? `<= ${r.goal}x goal met` : `> ${r.goal}x GOAL MISSED`;
}
