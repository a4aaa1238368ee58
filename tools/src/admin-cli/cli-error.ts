/**
 * Why the admin CLI stops, as an exit code: 2 for input it refuses itself (usage, a malformed
 * value), 1 for what the service refused or failed, 3 when the service cannot be reached.
 */
export const EXIT = { ok: 0, refused: 1, usage: 2, unreachable: 3 } as const;

export class CliError extends Error {
  override readonly name = "CliError";
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}
