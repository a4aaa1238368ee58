/**
 * The admin surface's one error type: an HTTP status, a short code and a message for the operator.
 * The admin API is not `/v1` and not part of the spec, so it keeps its own small code set.
 */
export type AdminErrorCode = "invalid_request" | "unauthorized" | "not_found" | "conflict" | "not_allowed";

const STATUS: Record<AdminErrorCode, number> = {
  invalid_request: 400,
  unauthorized: 401,
  not_allowed: 403,
  not_found: 404,
  conflict: 409,
};

export class AdminError extends Error {
  override readonly name = "AdminError";
  readonly status: number;

  constructor(
    readonly code: AdminErrorCode,
    message: string,
  ) {
    super(message);
    this.status = STATUS[code];
  }
}
