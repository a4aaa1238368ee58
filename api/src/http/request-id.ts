/**
 * Every response carries `Request-Id` (DESIGN section 7): a fresh `req_...` id per request, also in
 * every error body and log line, so a caller's report finds the server's log. A caller-sent id is
 * not trusted (it would let one request impersonate another in the logs).
 */

import { newRequestId } from "@cpay/ledger/ids";
import type { NextFunction, Request, Response } from "express";

export function requestId(request: Request, response: Response, next: NextFunction): void {
  const id = newRequestId();
  response.locals.requestId = id;
  response.setHeader("Request-Id", id);
  next();
  void request;
}

export function requestIdOf(response: Response): string {
  return (response.locals.requestId as string | undefined) ?? "req_unknown";
}
