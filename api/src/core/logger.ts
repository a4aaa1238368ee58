/**
 * Structured logs (pino). What may appear: method, route, status, duration, request id, account
 * and key ids, error codes. What never appears: request or response bodies (they carry amounts and
 * memos), the Authorization header, secrets, decryption proofs. The redaction paths are a second
 * line of defence for anything passed by mistake; the plaintext canary test reads these logs.
 */
import pino, { type Logger } from "pino";

export type { Logger };

export const REDACTED_PATHS = [
  "authorization",
  "headers.authorization",
  "req.headers.authorization",
  "body",
  "amount",
  "memo",
  "secret",
  "decryption_proof",
  "cookie",
  "headers.cookie",
  "req.headers.cookie",
  "wrapped_secret",
  "*.cookie",
  "*.wrapped_secret",
  "*.authorization",
  "*.body",
  "*.amount",
  "*.memo",
  "*.secret",
  "*.decryption_proof",
];

/** A logger writing JSON lines to `destination` (stdout by default) at `level`. */
export function createLogger(options: { level?: string; destination?: pino.DestinationStream } = {}): Logger {
  return pino(
    {
      level: options.level ?? "info",
      base: { service: "cpay-api" },
      redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    options.destination ?? pino.destination({ sync: false }),
  );
}
