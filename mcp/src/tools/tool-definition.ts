/**
 * A tool as both servers declare it: its name, the title and description a model reads, its input
 * schema (a strict zod object: an unknown field is refused rather than silently dropped, and every
 * field carries its description into the JSON Schema that `tools/list` shows) and its annotations
 * (`readOnlyHint` on reads; `destructiveHint` where money moves or a policy changes;
 * `idempotentHint` only where repeating the call with the same arguments changes nothing more).
 */
import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";

export interface ToolDefinition<Input extends z.ZodObject = z.ZodObject> {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: Input;
  readonly annotations: ToolAnnotations;
}

/** What a read-only tool declares: it changes nothing, so repeating it is harmless. */
export const READ_ONLY: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
