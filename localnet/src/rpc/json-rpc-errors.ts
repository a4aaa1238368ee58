/**
 * JSON-RPC error objects, with the codes and wording a Solana validator uses.
 *
 * Clients such as @solana/kit branch on `code` (and read `data` for preflight failures), so the
 * codes must be Solana's exactly; messages follow agave's text where a client or a human might
 * match on it, and otherwise name the offending parameter.
 */

/** Standard JSON-RPC 2.0 codes plus the Solana server codes this localnet can produce. */
export const RpcErrorCode = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
  SEND_TRANSACTION_PREFLIGHT_FAILURE: -32002,
  TRANSACTION_SIGNATURE_VERIFICATION_FAILURE: -32003,
  UNSUPPORTED_TRANSACTION_VERSION: -32015,
  MIN_CONTEXT_SLOT_NOT_REACHED: -32016,
} as const;

/**
 * An error a method handler throws to answer a request with a JSON-RPC error object. Anything else
 * thrown by a handler becomes -32603 (and is logged), so a bug never leaks a stack to the client.
 */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = "RpcError";
  }

  /** The `error` member of a JSON-RPC response. */
  toJson(): { code: number; message: string; data?: unknown } {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}

export const parseError = (): RpcError => new RpcError(RpcErrorCode.PARSE_ERROR, "Parse error");

export const invalidRequest = (detail?: string): RpcError =>
  new RpcError(RpcErrorCode.INVALID_REQUEST, detail ? `Invalid request: ${detail}` : "Invalid request");

export const methodNotFound = (): RpcError => new RpcError(RpcErrorCode.METHOD_NOT_FOUND, "Method not found");

/** -32602 with `message` verbatim (agave's own texts already carry their prefix). */
export const invalidParams = (message: string): RpcError =>
  new RpcError(RpcErrorCode.INVALID_PARAMS, message);

export const internalError = (): RpcError => new RpcError(RpcErrorCode.INTERNAL_ERROR, "Internal error");

/** -32016: the node has not reached the caller's `minContextSlot` yet. */
export const minContextSlotNotReached = (contextSlot: bigint): RpcError =>
  new RpcError(RpcErrorCode.MIN_CONTEXT_SLOT_NOT_REACHED, "Minimum context slot has not been reached", {
    contextSlot,
  });

/** -32015: a v0 transaction asked for without `maxSupportedTransactionVersion: 0`. */
export const unsupportedTransactionVersion = (version: number): RpcError =>
  new RpcError(
    RpcErrorCode.UNSUPPORTED_TRANSACTION_VERSION,
    `Transaction version (${version}) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": ${version}`,
  );
