/**
 * The JSON-RPC 2.0 envelope, shared by the HTTP and WebSocket servers: parse, validate, dispatch
 * single or batch requests, and turn every outcome (including handler bugs) into a response.
 *
 * This function is the reason a request can never take the process down: it never throws, whatever
 * the input. Requests without an `id` are notifications and get no response (spec section 4.1), which
 * is also how @solana/kit's WebSocket keep-alive `{"jsonrpc":"2.0","method":"ping"}` is ignored.
 */
import { stringifyJson } from "./json-bigint";
import { internalError, invalidRequest, methodNotFound, parseError, RpcError } from "./json-rpc-errors";

/** A bound method: takes `params`, returns `result` or throws RpcError. */
export type Handler = (params: unknown) => unknown;

export interface DispatchOptions {
  /** The handler for `method`, or undefined when there is none. */
  readonly resolve: (method: string) => Handler | undefined;
  /** Called with errors that are bugs (not RpcError), which answer -32603. */
  readonly onInternalError?: (error: unknown, method: string) => void;
}

type Id = string | number | null;

interface Response {
  readonly jsonrpc: "2.0";
  readonly result?: unknown;
  readonly error?: unknown;
  readonly id: Id;
}

const errorResponse = (id: Id, error: RpcError): Response => ({ jsonrpc: "2.0", error: error.toJson(), id });

function isValidId(id: unknown): id is Id {
  return id === null || typeof id === "string" || (typeof id === "number" && Number.isFinite(id));
}

/** Handles one request object; null for a notification. */
function handleRequest(request: unknown, options: DispatchOptions): Response | null {
  if (typeof request !== "object" || request === null || Array.isArray(request)) {
    return errorResponse(null, invalidRequest("a request must be a JSON object"));
  }
  const { jsonrpc, method, params } = request as Record<string, unknown>;
  const hasId = "id" in request;
  const rawId = (request as { id?: unknown }).id;
  if (hasId && !isValidId(rawId))
    return errorResponse(null, invalidRequest('"id" must be a string, number or null'));
  const id: Id = hasId ? (rawId as Id) : null;
  if (jsonrpc !== "2.0") return errorResponse(id, invalidRequest('"jsonrpc" must be "2.0"'));
  if (typeof method !== "string") return errorResponse(id, invalidRequest('"method" must be a string'));

  const handler = options.resolve(method);
  let response: Response;
  if (!handler) {
    response = errorResponse(id, methodNotFound());
  } else {
    try {
      response = { jsonrpc: "2.0", result: handler(params), id };
    } catch (error) {
      if (!(error instanceof RpcError)) options.onInternalError?.(error, method);
      response = errorResponse(id, error instanceof RpcError ? error : internalError());
    }
  }
  return hasId ? response : null;
}

/**
 * Answers a raw request body. Returns the response text, or null when there is nothing to send
 * (a notification, or a batch of only notifications).
 */
export function dispatchJsonRpc(body: string, options: DispatchOptions): string | null {
  let payload: unknown;
  try {
    payload = JSON.parse(body);
  } catch {
    return stringifyJson(errorResponse(null, parseError()));
  }
  if (!Array.isArray(payload)) {
    const response = handleRequest(payload, options);
    return response && serialize(response, options);
  }
  if (payload.length === 0) return stringifyJson(errorResponse(null, invalidRequest("empty batch")));
  const responses: string[] = [];
  for (const request of payload) {
    const response = handleRequest(request, options);
    if (response) responses.push(serialize(response, options));
  }
  return responses.length > 0 ? `[${responses.join(",")}]` : null;
}

/** Serializing a result cannot fail for handler output, but a bug there must not escape either. */
function serialize(response: Response, options: DispatchOptions): string {
  try {
    return stringifyJson(response);
  } catch (error) {
    options.onInternalError?.(error, "<serialize>");
    return stringifyJson(errorResponse(response.id, internalError()));
  }
}
