import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiWorld, startApiWorld } from "../support/api-world";

describe("the /v1 service", () => {
  let world: ApiWorld;
  beforeAll(async () => {
    world = await startApiWorld();
  });
  afterAll(async () => {
    await world?.close();
  });

  it("serves the authenticated account and its OpenAPI document", async () => {
    const alice = await world.account("alice");
    const me = await alice.client.call("getMe");
    expect(me.handle).toBe("@alice");
    const response = await world.fetch("/v1/openapi.json");
    expect(response.status).toBe(200);
    const doc = (await response.json()) as { openapi: string };
    expect(doc.openapi).toBe("3.1.0");
  });
});
