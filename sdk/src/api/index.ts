/**
 * `@cpay/sdk/api`: the `/v1` contracts (zod, `Z*` schemas and `T*` types), the route table, the
 * error code table, the OpenAPI 3.1 generator and the typed client. The server validates with these
 * same schemas, so a request the client builds is one the server accepts.
 */

export { bytesOfId, idFromBytes } from "../sealed/ids";
export * from "./accounts";
export * from "./agents";
export * from "./approvals";
export {
  type ApiClient,
  type ApiClientOptions,
  ApiRequestError,
  type CallInput,
  type CallOutput,
  createApiClient,
} from "./client";
export * from "./common";
export * from "./dashboard";
export * from "./environment";
export { API_ERRORS, type ApiErrorCode, statusOfApiError } from "./errors";
export * from "./event-types";
export * from "./events";
export * from "./keys";
export { buildOpenApiDocument } from "./openapi";
export * from "./relay";
export { API_ROUTES, type ApiRouteId, type RouteAudience, type RouteContract } from "./routes";
export * from "./transfers";
export * from "./webhooks";
