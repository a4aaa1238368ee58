import { describe, expect, it } from "vitest";
import { apiSuite } from "../support/api-suite";

describe("the /v1 service", () => {
  const given = apiSuite();

  it("serves the authenticated account and its OpenAPI document", async () => {
    const alice = await given.world.account("alice");
    const me = await alice.client.call("getMe");
    expect(me.handle).toBe("@alice");
    const response = await given.world.fetch("/v1/openapi.json");
    expect(response.status).toBe(200);
    const doc = (await response.json()) as { openapi: string };
    expect(doc.openapi).toBe("3.1.0");
  });
});
