/**
 * `ApiError(code)`: the one error type handlers throw (STYLE 6). The status comes from the shared
 * code table in `@cpay/sdk/api`; `param` names the offending field, header or path segment;
 * `detail`, when a refusal must stay generic to its caller, says why for the service's log only.
 */
import { type ApiErrorCode, statusOfApiError } from "@cpay/sdk/api";

export class ApiError extends Error {
  override readonly name = "ApiError";
  readonly status: number;

  constructor(
    readonly code: ApiErrorCode,
    message: string,
    readonly param?: string,
    /** Extra response headers (e.g. `Retry-After`). */
    readonly headers?: Readonly<Record<string, string>>,
    /** Why, for the log only: never sent (e.g. the WebAuthn verifier's own message). */
    readonly detail?: string,
  ) {
    super(message);
    this.status = statusOfApiError(code);
  }
}
