/**
 * Waiting for a condition, never for a time it is assumed to take: polls `read` until `done`
 * holds and returns that value. The deadline (30 s unless given) is a safety net for a stuck
 * system, generous enough for a busy 2-core machine; it is not the schedule, and it fails the test
 * loudly instead of letting it go on as if the condition held.
 */
export async function eventually<T>(
  read: () => T | Promise<T>,
  done: (value: T) => boolean,
  ms = 30_000,
  pollMs = 25,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not reached in ${ms} ms: ${shown(value)}`);
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

function shown(value: unknown): string {
  try {
    return (
      JSON.stringify(value, (_key, item) => (typeof item === "bigint" ? item.toString() : item)) ??
      "undefined"
    );
  } catch {
    return String(value);
  }
}
