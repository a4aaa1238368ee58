/** What the CLI prints: aligned text tables for people, or the service's JSON with `--json`. */

/** Prints `rows` under `columns` (header, then one line per row), columns padded to their widest cell. */
export function printTable(columns: readonly string[], rows: readonly (readonly string[])[]): void {
  if (rows.length === 0) {
    console.log("(none)");
    return;
  }
  const widths = columns.map((column, index) =>
    Math.max(column.length, ...rows.map((row) => (row[index] ?? "").length)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, index) => cell.padEnd(widths[index] ?? 0))
      .join("  ")
      .trimEnd();
  console.log(line(columns));
  for (const row of rows) console.log(line(row));
}

/** Pretty JSON on stdout (for scripts: `--json`). */
export function printJson(value: unknown): void {
  console.log(JSON.stringify(value, null, 2));
}
