import { describe, expect, it } from "vitest";
import { ENVIRONMENT_HEADER } from "./environment";
import { API_ERRORS } from "./errors";
import { buildOpenApiDocument } from "./openapi";
import { API_ROUTES } from "./routes";

const doc = buildOpenApiDocument("http://127.0.0.1:3000") as {
  openapi: string;
  paths: Record<
    string,
    Record<string, { responses: Record<string, unknown>; operationId: string; security?: unknown }>
  >;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
};

describe("the OpenAPI 3.1 document", () => {
  it("has every route of the route table, with its success status and its errors' statuses", () => {
    expect(doc.openapi).toBe("3.1.0");
    for (const [id, route] of Object.entries(API_ROUTES)) {
      const operation = doc.paths[route.path.replace(/:([a-z_]+)/g, "{$1}")]?.[route.method];
      expect(operation?.operationId).toBe(id);
      expect(Object.keys(operation?.responses ?? {})).toContain(String(route.response.status));
      for (const code of route.errors) {
        expect(Object.keys(operation?.responses ?? {})).toContain(String(API_ERRORS[code].status));
      }
    }
  });

  it("lists 415 on every route with a body, and 403 cross_site_request wherever a browser calls", () => {
    for (const [id, route] of Object.entries(API_ROUTES)) {
      const operation = doc.paths[route.path.replace(/:([a-z_]+)/g, "{$1}")]?.[route.method] as unknown as {
        responses: Record<string, { description: string }>;
      };
      const has = (code: keyof typeof API_ERRORS) =>
        operation.responses[String(API_ERRORS[code].status)]?.description.includes(`\`${code}\``) ?? false;
      expect(has("unsupported_media_type"), id).toBe("body" in route);
      expect(has("cross_site_request"), id).toBe(route.audience !== "agent");
    }
  });

  it("states who may call each route: no credential, a session cookie, a key or either", () => {
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(["bearerAuth", "cookieAuth"]);
    const expected = {
      public: [],
      session: [{ cookieAuth: [] }],
      any: [{ bearerAuth: [] }, { cookieAuth: [] }],
      owner: [{ bearerAuth: [] }, { cookieAuth: [] }],
      agent: undefined,
    } as const;
    for (const route of Object.values(API_ROUTES)) {
      const operation = doc.paths[route.path.replace(/:([a-z_]+)/g, "{$1}")]?.[route.method];
      expect(operation?.security, route.path).toEqual(expected[route.audience]);
    }
  });

  it("takes the environment header on the dashboard's routes, and only there", () => {
    for (const route of Object.values(API_ROUTES)) {
      const operation = doc.paths[route.path.replace(/:([a-z_]+)/g, "{$1}")]?.[route.method] as unknown as {
        parameters: { name: string; in: string; schema: { enum?: string[] } }[];
      };
      const header = operation.parameters.find((parameter) => parameter.name === ENVIRONMENT_HEADER);
      if (route.path.startsWith("/v1/dashboard/")) {
        expect(header, route.path).toMatchObject({ in: "header", schema: { enum: ["test", "live"] } });
      } else {
        expect(header, route.path).toBeUndefined();
      }
    }
  });

  it("resolves every $ref to a component", () => {
    const refs = JSON.stringify(doc).match(/"\$ref":"[^"]+"/g) ?? [];
    expect(refs.length).toBeGreaterThan(5);
    for (const ref of refs) {
      const name = ref.slice('"$ref":"#/components/schemas/'.length, -1);
      expect(doc.components.schemas[name], ref).toBeDefined();
    }
  });

  it("never describes an amount in a response", () => {
    for (const [id, route] of Object.entries(API_ROUTES)) {
      // amount only with a client-made proof (spec 4.10)
      if (id === "getBalances" || id === "proveBalances") continue;
      const text = JSON.stringify(
        doc.paths[route.path.replace(/:([a-z_]+)/g, "{$1}")]?.[route.method]?.responses,
      );
      expect(text).not.toMatch(/"amount"/);
    }
  });
});
