/**
 * The remote server's failures read as tool refusals (`@cpay/mcp/tools` serve-tool.ts): an
 * `ApiError` is the `/v1` refusal it would have been (code, message, param: messages never quote
 * an amount), an unreachable cluster is `chain_unavailable` as on `/v1`; anything else is
 * unexpected, logged as the HTTP door logs it (digits masked, no request data) and answered with no
 * detail.
 */
import type { FailureReading, Refusal } from "@cpay/mcp/tools";
import { ApiError } from "../../core/api-error";
import { describeUnexpected } from "../../core/describe-unexpected";
import type { Logger } from "../../core/logger";
import { chainUnavailableOf } from "../error-handler";

export function remoteFailureReading(logger: Logger, requestId: string): FailureReading {
  return {
    refusalOf(error) {
      const refusal = error instanceof ApiError ? error : chainUnavailableOf(error);
      return refusal === null ? null : refusalOfApiError(refusal);
    },
    onUnexpected(error, tool) {
      logger.error({ request_id: requestId, tool, err: describeUnexpected(error) }, "MCP tool failed");
    },
  };
}

export function refusalOfApiError(error: {
  code: string;
  message: string;
  param?: string | undefined;
}): Refusal {
  return {
    code: error.code,
    message: error.message,
    ...(error.param === undefined ? {} : { param: error.param }),
  };
}
