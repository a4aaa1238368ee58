/**
 * The OpenAPI 3.1 document of `/v1`, generated from the route table and its zod contracts
 * (OpenAPI 3.1 schemas are JSON Schema 2020-12, which zod emits natively). Schemas with a
 * `meta({ id })` become `components.schemas` entries; everything else is inlined.
 */
import { z } from "zod";
import { ZErrorBody } from "./common";
import { ENVIRONMENT_HEADER, ENVIRONMENTS } from "./environment";
import { API_ERRORS, type ApiErrorCode } from "./errors";
import { API_ROUTES, type RouteContract } from "./routes";

type JsonSchema = Record<string, unknown>;

/** Always-possible errors, listed on every operation. */
const COMMON_ERRORS: readonly ApiErrorCode[] = [
  "invalid_request",
  "unauthorized",
  "rate_limited",
  "internal_error",
];

/**
 * Errors an operation can return by its shape: a body sent as anything but JSON, or too large; a
 * browser's request from another site than the dashboard's, where a browser is the caller (the
 * session cookie, the sign-in steps).
 */
function implicitErrors(route: RouteContract): ApiErrorCode[] {
  return [
    ...(route.body === undefined ? [] : (["unsupported_media_type", "payload_too_large"] as const)),
    ...(route.audience === "agent" ? [] : (["cross_site_request"] as const)),
  ];
}

/** The dashboard's routes: the enrollment and sign-in steps carry no credential to route them by. */
const DASHBOARD_PATHS = "/v1/dashboard/";

const ENVIRONMENT_PARAMETER: JsonSchema = {
  name: ENVIRONMENT_HEADER,
  in: "header",
  required: false,
  schema: { type: "string", enum: [...ENVIRONMENTS] },
  description:
    "The environment the request is for. Without an `Authorization` header it picks the environment " +
    "(else the session cookie's prefix does; else `test`); with a key or a session it must agree with " +
    "theirs (`400 invalid_request`). Any other value is `400 invalid_request`; `live` on a service " +
    "without a live environment is `403 live_mode_unavailable`.",
};

/** Builds the document; `serverUrl` is where this service is reachable (e.g. `http://127.0.0.1:3000`). */
export function buildOpenApiDocument(serverUrl: string): JsonSchema {
  const components: Record<string, JsonSchema> = {};
  const schemaOf = (schema: z.ZodType, io: "input" | "output") => toOpenApiSchema(schema, io, components);
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const [operationId, route] of Object.entries(API_ROUTES) as [string, RouteContract][]) {
    const path = route.path.replace(/:([a-z_]+)/g, "{$1}");
    paths[path] ??= {};
    (paths[path] as Record<string, JsonSchema>)[route.method] = operationOf(operationId, route, schemaOf);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "cpay /v1",
      version: "1.0.0",
      description:
        "Confidential payments on Solana with agent accounts whose spend policies are enforced on-chain. " +
        "Amounts are accepted, never returned. Every POST that changes something accepts an `Idempotency-Key` header (24 h).",
    },
    servers: [{ url: serverUrl }],
    security: [{ bearerAuth: [] }],
    paths,
    components: {
      securitySchemes: {
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          description: "`svc_test_...` or `svc_live_...` API key",
        },
        cookieAuth: {
          type: "apiKey",
          in: "cookie",
          name: "cpay_session",
          description:
            "A dashboard session (`sess_test_...` or `sess_live_...`), set by sign-in; named `__Host-cpay_session` when the dashboard is served over https. Every non-GET request made with it also needs the session's `X-CSRF-Token` header, and a browser's request must come from the dashboard's origin (`403 cross_site_request`). An `Authorization` header, when present, wins.",
        },
      },
      schemas: components,
    },
  };
}

function operationOf(
  operationId: string,
  route: RouteContract,
  schemaOf: (schema: z.ZodType, io: "input" | "output") => JsonSchema,
): JsonSchema {
  const parameters: JsonSchema[] = [];
  for (const [where, object] of [
    ["path", route.params],
    ["query", route.query],
  ] as const) {
    if (object === undefined) continue;
    for (const [name, field] of Object.entries(object.shape)) {
      parameters.push({
        name,
        in: where,
        required: where === "path" || !(field as z.ZodType).safeParse(undefined).success,
        schema: schemaOf(field as z.ZodType, "input"),
      });
    }
  }
  if (route.path.startsWith(DASHBOARD_PATHS)) parameters.push(ENVIRONMENT_PARAMETER);
  if (
    route.method !== "get" &&
    (route.audience === "session" || route.audience === "any" || route.audience === "owner")
  ) {
    parameters.push({
      name: "X-CSRF-Token",
      in: "header",
      required: false,
      schema: { type: "string" },
      description:
        "Required when the request is authenticated by the session cookie: the session view's `csrf_token`.",
    });
  }
  if (route.method === "post" && route.audience !== "public" && route.readOnly !== true) {
    parameters.push({
      name: "Idempotency-Key",
      in: "header",
      required: false,
      schema: { type: "string", minLength: 1, maxLength: 255 },
      description:
        "Replays the stored response of an identical request for 24 h; a different body gives 409." +
        (route.shownOnce === undefined
          ? ""
          : ` A replay never repeats the secret: \`${route.shownOnce}\` is null and \`secret_already_delivered\` is true.`),
    });
  }
  const responses: Record<string, JsonSchema> = {
    [String(route.response.status)]: {
      description: "Success",
      headers: { "Request-Id": { schema: { type: "string" } } },
      content: { "application/json": { schema: schemaOf(route.response.schema, "output") } },
    },
  };
  const errorBody = schemaOf(ZErrorBody, "output");
  for (const code of new Set([...route.errors, ...implicitErrors(route), ...COMMON_ERRORS])) {
    const status = String(API_ERRORS[code].status);
    const existing = responses[status] as { description: string } | undefined;
    const line = `\`${code}\`: ${API_ERRORS[code].description}`;
    responses[status] = {
      description: existing === undefined ? line : `${existing.description}\n${line}`,
      content: { "application/json": { schema: errorBody } },
    };
  }
  return {
    operationId,
    summary: route.summary,
    ...securityOf(route),
    parameters,
    ...(route.body === undefined
      ? {}
      : {
          requestBody: {
            required: route.method !== "get",
            content: { "application/json": { schema: schemaOf(route.body, "input") } },
          },
        }),
    responses,
  };
}

/** Who may call: the document's default (an API key) unless the route says otherwise. */
function securityOf(route: RouteContract): { security?: JsonSchema[] } {
  switch (route.audience) {
    case "public":
      return { security: [] };
    case "session":
      return { security: [{ cookieAuth: [] }] };
    case "any":
    case "owner":
      return { security: [{ bearerAuth: [] }, { cookieAuth: [] }] };
    case "agent":
      return {};
  }
}

/** zod -> JSON Schema 2020-12 with `$defs` hoisted into the document's components. */
function toOpenApiSchema(schema: z.ZodType, io: "input" | "output", components: Record<string, JsonSchema>) {
  const json = z.toJSONSchema(schema, { target: "draft-2020-12", io, unrepresentable: "any" }) as JsonSchema;
  const { $defs, $schema: _ignored, ...rest } = json as { $defs?: Record<string, JsonSchema> } & JsonSchema;
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (value !== null && typeof value === "object") {
      return Object.fromEntries(
        Object.entries(value).map(([key, inner]) => [
          key,
          key === "$ref" && typeof inner === "string"
            ? inner.replace("#/$defs/", "#/components/schemas/")
            : rewrite(inner),
        ]),
      );
    }
    return value;
  };
  for (const [id, definition] of Object.entries($defs ?? {})) {
    // Input and output forms differ only for defaults; the output form names the component.
    if (components[id] === undefined || io === "output") components[id] = rewrite(definition) as JsonSchema;
  }
  return rewrite(rest) as JsonSchema;
}
