/**
 * What an unexpected error may put in a log line: its name, code and message with every digit run
 * masked, since a message built deep in a library could quote an amount. The HTTP error middleware
 * and every background job log through it.
 */
export function describeUnexpected(error: unknown): Record<string, string> {
  if (error === null || typeof error !== "object") return { name: typeof error };
  const { name, code, message } = error as { name?: unknown; code?: unknown; message?: unknown };
  return {
    name: String(name ?? "Error"),
    ...(code === undefined ? {} : { code: String(code) }),
    message: String(message ?? "")
      .replace(/[0-9]+/g, "#")
      .slice(0, 300),
  };
}
