/**
 * The remote door serves exactly the shared catalogue's remote set, each tool bound to a `/v1` route
 * whose audience fits it: the owner-only routes behind the owner-only tools, and no tool on a
 * dashboard-session, agent-only or public route.
 */
import { REMOTE_SERVER_TOOLS } from "@cpay/mcp/tools";
import { API_ROUTES } from "@cpay/sdk/api";
import { describe, expect, it } from "vitest";
import { REMOTE_TOOLS } from "./remote-tools";

describe("the remote tools", () => {
  it("Given the door's table, When compared with the shared catalogue, Then it serves each remote tool once, through a route an API key may call", () => {
    expect(REMOTE_TOOLS.map((tool) => tool.definition.name)).toEqual(
      REMOTE_SERVER_TOOLS.map((tool) => tool.name),
    );
    for (const tool of REMOTE_TOOLS) {
      expect(["any", "owner"], tool.definition.name).toContain(API_ROUTES[tool.route].audience);
    }
    const ownerOnly = REMOTE_TOOLS.filter((tool) => API_ROUTES[tool.route].audience === "owner");
    expect(ownerOnly.map((tool) => tool.definition.name).sort()).toEqual([
      "approve_transaction",
      "get_spend_policy",
      "list_agents",
      "list_pending_approvals",
      "reject_transaction",
      "update_spend_policy",
    ]);
  });
});
