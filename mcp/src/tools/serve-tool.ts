/**
 * Registers a tool definition on a server with its handler, so that every way a call can fail ends
 * as a tool result: a refusal the door recognises (`refusalOf`) becomes a tool error naming its
 * rule; anything else becomes the one generic failure, its detail only for the door's own log
 * (`onUnexpected`): never a stack trace or an internal message to the model. Input that does not
 * fit the schema is refused by the SDK itself, also as a tool error.
 */
import type { McpServer, ToolCallback } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { CallToolResult, ServerNotification, ServerRequest } from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import type { ToolDefinition } from "./tool-definition";
import { type Refusal, toolRefusal, UNEXPECTED_FAILURE } from "./tool-results";

export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

export type ToolHandler<Input extends z.ZodObject> = (
  args: z.output<Input>,
  extra: ToolExtra,
) => Promise<CallToolResult>;

/** How a door reads failures. */
export interface FailureReading {
  /** The refusal `error` is, or null when it is unexpected. */
  refusalOf(error: unknown): Refusal | null;
  /** Called with every unexpected failure, for the door's log. */
  onUnexpected(error: unknown, tool: string): void;
}

export function serveTool<Input extends z.ZodObject>(
  server: McpServer,
  definition: ToolDefinition<Input>,
  failures: FailureReading,
  handler: ToolHandler<Input>,
): void {
  const callback = async (args: z.output<Input>, extra: ToolExtra) => {
    try {
      return await handler(args, extra);
    } catch (error) {
      const refusal = failures.refusalOf(error);
      if (refusal !== null) return toolRefusal(refusal);
      failures.onUnexpected(error, definition.name);
      return toolRefusal(UNEXPECTED_FAILURE);
    }
  };
  server.registerTool(
    definition.name,
    {
      title: definition.title,
      description: definition.description,
      inputSchema: definition.inputSchema,
      annotations: definition.annotations,
    },
    // The SDK computes the arguments' type from the schema, which it cannot do for a generic one;
    // `args` is the schema's output here all the same (the SDK parses them with it first).
    callback as unknown as ToolCallback<Input>,
  );
}
