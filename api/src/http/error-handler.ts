/**
 * The one error middleware: every failure becomes `{"error": {code, message, param?, request_id}}`
 * with the code's status. Body-parser failures (bad JSON, too large, wrong encoding) are the
 * caller's fault and map to 4xx; anything unexpected is logged (without request data) and
 * answered 500 `internal_error`.
 */
import type { NextFunction, Request, Response } from "express";
import { ApiError } from "../core/api-error";
import { isChainUnavailable } from "../core/chain-unavailable";
import { describeUnexpected } from "../core/describe-unexpected";
import type { Logger } from "../core/logger";
import { requestIdOf } from "./request-id";

export function sendError(response: Response, error: ApiError): void {
  if (error.headers !== undefined) {
    for (const [name, value] of Object.entries(error.headers)) response.setHeader(name, value);
  }
  response.status(error.status).json({
    error: {
      code: error.code,
      message: error.message,
      ...(error.param === undefined ? {} : { param: error.param }),
      request_id: requestIdOf(response),
    },
  });
}

/** Maps what Express and body-parser throw to an ApiError, or null if it is not theirs. */
export function parserErrorOf(error: unknown): ApiError | null {
  if (error === null || typeof error !== "object") return null;
  const type = (error as { type?: unknown }).type;
  switch (type) {
    case "entity.parse.failed":
      return new ApiError("invalid_request", "the request body is not valid JSON", "body");
    case "entity.too.large":
      return new ApiError("payload_too_large", "the request body exceeds 64 KiB", "body");
    case "encoding.unsupported":
    case "charset.unsupported":
      return new ApiError("unsupported_media_type", "the request body must be UTF-8 JSON", "content-type");
    case "request.aborted":
    case "request.size.invalid":
    case "stream.encoding.set":
      return new ApiError("invalid_request", "the request body could not be read", "body");
    default:
      break;
  }
  const status = (error as { status?: unknown; statusCode?: unknown }).status;
  if (typeof status === "number" && status >= 400 && status < 500) {
    return new ApiError("invalid_request", "the request could not be read", "body");
  }
  return null;
}

/**
 * An unreachable cluster is `503 chain_unavailable`: the request can be retried (with its
 * Idempotency-Key), and it is the operator's problem, not a bug to log as one.
 */
export function chainUnavailableOf(error: unknown): ApiError | null {
  if (!isChainUnavailable(error)) return null;
  return new ApiError(
    "chain_unavailable",
    "the Solana cluster could not be reached; retry the request with the same Idempotency-Key",
    undefined,
    { "Retry-After": "2" },
  );
}

export function createErrorHandler(logger: Logger) {
  return (error: unknown, _request: Request, response: Response, _next: NextFunction): void => {
    const apiError = error instanceof ApiError ? error : (parserErrorOf(error) ?? chainUnavailableOf(error));
    if (apiError !== null) {
      if (apiError.code === "chain_unavailable" && !(error instanceof ApiError)) {
        logger.warn(
          { request_id: requestIdOf(response), err: describeUnexpected(error) },
          "chain unavailable",
        );
      }
      sendError(response, apiError);
      return;
    }
    logger.error({ request_id: requestIdOf(response), err: describeUnexpected(error) }, "unhandled error");
    if (response.headersSent) return;
    sendError(response, new ApiError("internal_error", "an unexpected error occurred; nothing was changed"));
  };
}
