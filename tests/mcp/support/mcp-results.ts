/**
 * Reading MCP tool results in the suites: the text a model reads, the JSON answer a tool gives
 * beside it, and the answer of a tool that must have succeeded (its text in the failure message
 * otherwise).
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";

export type ToolResult = Awaited<ReturnType<Client["callTool"]>>;

/** Every text block of the result, joined: what a model reads. */
export function textOf(result: ToolResult): string {
  const content = (result.content ?? []) as { type: string; text?: string }[];
  return content
    .filter((block) => block.type === "text")
    .map((block) => block.text ?? "")
    .join("\n");
}

/** The structured answer of a tool that succeeded; throws with its text when it did not. */
export function answerOf<T>(result: ToolResult): T {
  if (result.isError === true) throw new Error(`the tool refused: ${textOf(result)}`);
  return result.structuredContent as T;
}

/** Calls `name` and returns its structured answer (it must succeed). */
export async function call<T>(client: Client, name: string, args: Record<string, unknown> = {}): Promise<T> {
  return answerOf<T>(await client.callTool({ name, arguments: args }));
}
