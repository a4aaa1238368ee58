/**
 * A setting the operator got wrong, and the reader of integer settings that raises it. Shared by
 * the API's, the indexer's and the ledger's own configuration (the SQLite file lock refuses a
 * second process with it), so every service reports a bad setting the same way and stops.
 */

/** A setting (environment variable, file, lock) that stops the process with an explanation. */
export class ConfigError extends Error {
  override readonly name = "ConfigError";
}

/** An integer setting of `env` within [min, max], or `fallback` when unset; `ConfigError` otherwise. */
export function integerFromEnv(
  env: NodeJS.ProcessEnv,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const text = env[name];
  if (text === undefined || text === "") return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${text}"`);
  }
  return value;
}
