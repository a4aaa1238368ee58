/**
 * The endpoint Helius POSTs raw webhook deliveries to: `POST /helius/webhook`.
 *
 * Helius signs nothing: the only proof a delivery is ours is the `authHeader` we registered, echoed
 * in `Authorization`. It is compared in constant time (SHA-256 digests, so neither content nor
 * length leaks through timing) before the body is even parsed, and it is never logged.
 *
 * The answer is the delivery's fate: 200 only once `onTransactions` has resolved, so a failure (500)
 * or a timeout makes Helius retry (3 times, 1 s apart, then the event is dropped — which is why the
 * indexer never relies on pushes alone). A malformed body is refused whole (400) and nothing of it is
 * delivered.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import express, { type NextFunction, type Request, type Response, type Router } from "express";
import type { ChainTransaction } from "../chain/indexer-chain";
import { chainTransactionsOfHeliusPayload, HeliusPayloadError } from "./helius-transaction";

export const HELIUS_WEBHOOK_PATH = "/helius/webhook";
/** Helius batches deliveries; a batch of raw transactions stays well under this. */
export const DEFAULT_HELIUS_MAX_BODY_BYTES = 5 * 1024 * 1024;

export interface HeliusReceiverOptions {
  /** The exact `Authorization` value Helius was told to send (`authHeader` of the webhook). */
  readonly authHeader: string;
  /** Gets every transaction of a delivery; Helius is answered 200 once this resolves. */
  readonly onTransactions: (transactions: ChainTransaction[]) => void | Promise<void>;
  /** Largest accepted body in bytes (413 beyond). Default 5 MiB. */
  readonly maxBodyBytes?: number;
  /** Told why `onTransactions` failed (the 500 answer says nothing). Gets the error, never the request. */
  readonly onError?: (error: unknown) => void;
}

/**
 * A Router serving `POST /helius/webhook` (see the module doc); mount it at the root of an app. Its
 * errors are answered `{"error": {"code", "message"}}`.
 */
export function createHeliusReceiver(options: HeliusReceiverOptions): Router {
  if (options.authHeader.length === 0) throw new RangeError("authHeader must not be empty");
  const limit = options.maxBodyBytes ?? DEFAULT_HELIUS_MAX_BODY_BYTES;
  if (!Number.isSafeInteger(limit) || limit <= 0) {
    throw new RangeError(`maxBodyBytes must be a positive integer, got ${limit}`);
  }
  const router = express.Router();
  router.post(
    HELIUS_WEBHOOK_PATH,
    requireAuthorization(options.authHeader),
    // strict: false, so a body that is JSON but not an array gets the precise 400 below.
    express.json({ limit, strict: false, type: () => true }),
    async (request: Request, response: Response) => {
      let transactions: ChainTransaction[];
      try {
        transactions = chainTransactionsOfHeliusPayload(request.body);
      } catch (error) {
        if (!(error instanceof HeliusPayloadError)) throw error;
        sendError(response, 400, "invalid_payload", error.message);
        return;
      }
      try {
        if (transactions.length > 0) await options.onTransactions(transactions);
      } catch (error) {
        options.onError?.(error);
        sendError(response, 500, "internal_error", "the delivery could not be processed; retry it");
        return;
      }
      response.status(200).json({ received: transactions.length });
    },
  );
  router.use(HELIUS_WEBHOOK_PATH, parserErrors(limit));
  return router;
}

function requireAuthorization(authHeader: string) {
  const expected = digest(authHeader);
  return (request: Request, response: Response, next: NextFunction): void => {
    const given = request.get("authorization");
    if (given === undefined || !timingSafeEqual(digest(given), expected)) {
      sendError(response, 401, "unauthorized", "missing or wrong Authorization header");
      return;
    }
    next();
  };
}

/** What body-parser throws, as answers: the sender's fault (4xx), or passed on when not its error. */
function parserErrors(limit: number) {
  return (error: unknown, _request: Request, response: Response, next: NextFunction): void => {
    const type = (error as { type?: unknown } | null)?.type;
    if (type === "entity.too.large") {
      sendError(response, 413, "payload_too_large", `the request body exceeds ${limit} bytes`);
    } else if (type === "entity.parse.failed") {
      sendError(response, 400, "invalid_json", "the request body is not valid JSON");
    } else if (type === "encoding.unsupported" || type === "charset.unsupported") {
      sendError(response, 415, "unsupported_media_type", "the request body must be UTF-8 JSON");
    } else if (isClientError(error)) {
      sendError(response, 400, "invalid_request", "the request body could not be read");
    } else {
      next(error);
    }
  };
}

function isClientError(error: unknown): boolean {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === "number" && status >= 400 && status < 500;
}

function sendError(response: Response, status: number, code: string, message: string): void {
  response.status(status).json({ error: { code, message } });
}

function digest(text: string): Buffer {
  return createHash("sha256").update(text, "utf8").digest();
}
